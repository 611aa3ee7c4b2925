// Table inheritance (INHERITS) in the manifest: the column names a child gets from its parents
// (for the rules on its keys and indexes, checked while tables resolve), then, once every table is
// resolved, each child's columns as PostgreSQL makes them: its parents' first, in order, those it
// declares under a parent's name merged in place, then its own.
import { idOf, type Column, type Table } from '../model/types.js';
import { parseQualifiedKey } from '../sql/quote.js';
import { inheritedSerialDefault } from '../model/serial-sequence.js';
import { keyColumnsOf } from './schema-table.js';
import type { Manifest, ManifestTable } from './schema.js';
import { resolveColumn } from './resolve-column.js';
import type { ProblemList } from './problems.js';

/** The manifest key a table reference names (a key, or a qualified name of one), if declared. */
function keyResolver(m: Manifest, defaultSchema: string): (ref: string) => string | undefined {
  const keyOfId = new Map<string, string>();
  for (const k of Object.keys(m.tables)) {
    const q = parseQualifiedKey(k, defaultSchema);
    if (!('error' in q)) keyOfId.set(idOf(q), k);
  }
  return (ref) => {
    if (m.tables[ref]) return ref;
    const q = parseQualifiedKey(ref, defaultSchema);
    return 'error' in q ? undefined : keyOfId.get(idOf(q));
  };
}

/** For each table that inherits: the names of the columns its parents give it (all the way up). */
export function inheritedColumnNames(m: Manifest, defaultSchema: string): Map<string, readonly string[]> {
  const keyOf = keyResolver(m, defaultSchema);
  const memo = new Map<string, readonly string[]>();
  const namesOf = (key: string, seen: ReadonlySet<string>): readonly string[] => {
    const done = memo.get(key);
    if (done) return done;
    const t = m.tables[key];
    if (!t || seen.has(key)) return [];
    const up = (t.inherits ?? []).flatMap((ref) => {
      const p = keyOf(ref);
      return p === undefined
        ? []
        : [...namesOf(p, new Set([...seen, key])), ...Object.keys(m.tables[p]?.columns ?? {})];
    });
    const names = [...new Set(up)];
    memo.set(key, names);
    return names;
  };
  const out = new Map<string, readonly string[]>();
  for (const [k, t] of Object.entries(m.tables)) if (t.inherits) out.set(k, namesOf(k, new Set()));
  return out;
}

/** An inherited copy of a parent's column: a serial's sequence stays the parent's (the child draws from it). */
function inheritedCopy(c: Column, parent: Table): Column {
  const serial = c.type.serial
    ? {
        type: { ...c.type, serial: false, sql: c.type.base },
        default: inheritedSerialDefault(parent.qname, c.name),
      }
    : {};
  return {
    name: c.name,
    type: c.type,
    notNull: c.notNull || c.identity !== undefined,
    ...(c.default !== undefined ? { default: c.default } : {}),
    ...(c.generated !== undefined ? { generated: c.generated } : {}),
    ...(c.collation !== undefined ? { collation: c.collation } : {}),
    ...(c.collationSchema !== undefined ? { collationSchema: c.collationSchema } : {}),
    // (CREATE TABLE … INHERITS gives it its parent's storage, not its statistics or options)
    ...(c.storage !== undefined ? { storage: c.storage } : {}),
    ...serial,
    inherited: true,
  };
}

/** Why Citus or PostgreSQL refuses this table in an inheritance tree (a child or a parent), if they do. */
function refusal(t: Table, m: Manifest, key: string): string | undefined {
  if (t.distribution.kind === 'schema')
    return 'is in a distributed schema: Citus refuses ("tables in a distributed schema cannot inherit or be inherited")';
  if (t.distribution.kind !== 'local')
    return `is declared ${t.distribution.kind === 'hash' ? 'distributed' : t.distribution.kind.replace('_', '-')}: Citus makes no Citus table of a table that inherits or is inherited ("… is not a regular, foreign or partitioned table"): declare it local`;
  const mt = m.tables[key];
  if (mt?.partition_by !== undefined || mt?.time_partitions !== undefined)
    return 'is partitioned: PostgreSQL refuses a partitioned table in an inheritance tree ("cannot inherit from partitioned table", "cannot create partitioned table as inheritance child")';
  if (!t.columns) return "is declared without columns: the manifest must know its columns to know its children's";
  return undefined;
}

/** What an inherited column has of its own (`inherited_columns`). */
type Own = Partial<Pick<Column, 'notNull' | 'statistics' | 'storage' | 'options'>> & { default?: string | null };

/** `inherited_columns`: what inherited columns have of their own (a default: null drops the parent's). */
function ownOfInherited(
  key: string,
  spec: NonNullable<ManifestTable['inherited_columns']>,
  columns: readonly Column[],
  problems: ProblemList,
): Map<string, Own> {
  const out = new Map<string, Own>();
  for (const [name, o] of Object.entries(spec)) {
    const path = ['tables', key, 'inherited_columns', name];
    const c = columns.find((x) => x.name === name);
    if (!c?.inherited) {
      problems.error(
        path,
        'unknown_column',
        `${JSON.stringify(name)} is not a column this table inherits${c ? ' (it is its own: declare it under columns)' : ''}`,
        true,
      );
      continue;
    }
    if (o.not_null === false && c.notNull) {
      problems.error(
        [...path, 'not_null'],
        'inherited_not_null',
        'its parent has it NOT NULL: PostgreSQL refuses DROP NOT NULL on a child ("column … is marked NOT NULL in parent table")',
      );
      continue;
    }
    const dflt = o.default === undefined || o.default === null ? o.default : String(o.default);
    if (typeof dflt === 'string' && !resolveColumn(name, { type: c.type.sql, default: dflt }, path, problems)) continue;
    const options = Object.entries(o.options ?? {}).map(([k, v]) => [k, String(v)] as const);
    out.set(name, {
      ...(dflt !== undefined ? { default: dflt } : {}),
      ...(o.not_null ? { notNull: true } : {}),
      ...(o.statistics !== undefined ? { statistics: o.statistics } : {}),
      ...(o.storage !== undefined ? { storage: o.storage } : {}),
      ...(options.length > 0 ? { options: Object.fromEntries(options) } : {}),
    });
  }
  return out;
}

/** The tables with their parents' columns and `inherits` set; problems for what PostgreSQL or Citus refuses. */
export function expandInheritance(
  m: Manifest,
  tables: Record<string, Table>,
  idOfKey: ReadonlyMap<string, string>,
  defaultSchema: string,
  problems: ProblemList,
): Record<string, Table> {
  const keyOf = keyResolver(m, defaultSchema);
  const out: Record<string, Table> = { ...tables };
  const done = new Set<string>();
  const refused = new Set<string>();
  const visit = (key: string, path: readonly string[]): void => {
    const id = idOfKey.get(key);
    const mt = m.tables[key];
    if (id === undefined || !mt?.inherits || done.has(key)) return;
    if (path.includes(key)) {
      problems.error(
        ['tables', key, 'inherits'],
        'inheritance_cycle',
        `inherits from itself through ${[...path, key].join(' → ')}`,
      );
      done.add(key);
      return;
    }
    const t = out[id]!;
    const parents: Table[] = [];
    mt.inherits.forEach((ref, i) => {
      const pk = keyOf(ref);
      const at = ['tables', key, 'inherits', i];
      if (pk === undefined || idOfKey.get(pk) === undefined) {
        problems.error(
          at,
          'unknown_table',
          `inherits from ${JSON.stringify(ref)}, which the manifest does not declare under tables`,
        );
        return;
      }
      visit(pk, [...path, key]);
      const p = out[idOfKey.get(pk)!]!;
      if (parents.includes(p)) {
        problems.error(at, 'duplicate_parent', `inherits from ${JSON.stringify(ref)} twice`);
        return;
      }
      const why = refusal(p, m, pk);
      if (why !== undefined && !refused.has(pk)) {
        refused.add(pk);
        problems.error(['tables', pk], 'inheritance_refused', `is inherited by ${key}, and ${why}`, true);
      }
      parents.push(p);
    });
    const why = refusal(t, m, key);
    if (why !== undefined)
      problems.error(['tables', key, 'inherits'], 'inheritance_refused', `inherits, and ${why}`, true);
    done.add(key);
    if (!t.columns) return;
    const pkCols = new Set(mt.primary_key ? keyColumnsOf(mt.primary_key) : []);
    const columns: Column[] = [];
    const typeClash = (c: Column, other: Column, at: (string | number)[]): boolean => {
      if (
        c.type.base === other.type.base &&
        (c.type.serial ? c.type.base : c.type.sql) === (other.type.serial ? other.type.base : other.type.sql)
      )
        return false;
      problems.error(
        at,
        'inherited_type_conflict',
        `column ${JSON.stringify(c.name)} is ${c.type.sql} here and ${other.type.sql} in a parent: PostgreSQL refuses it ("inherited column … has a type conflict")`,
      );
      return true;
    };
    for (const p of parents)
      for (const pc of p.columns ?? []) {
        const was = columns.find((c) => c.name === pc.name);
        if (was) typeClash(pc, was, ['tables', key, 'inherits']);
        else columns.push(inheritedCopy(pc, p));
      }
    for (const c of t.columns) {
      const at = columns.findIndex((x) => x.name === c.name);
      if (at < 0) columns.push(c);
      else if (!typeClash(c, columns[at]!, ['tables', key, 'columns', c.name]))
        // Merged: the table's own column, where its parent has it; NOT NULL if either is, and the
        // parent's default unless it has its own.
        columns[at] = {
          ...c,
          notNull: c.notNull || columns[at]!.notNull,
          ...(c.default === undefined && columns[at]!.default !== undefined ? { default: columns[at]!.default } : {}),
        };
    }
    const own = ownOfInherited(key, mt.inherited_columns ?? {}, columns, problems);
    out[id] = {
      ...t,
      columns: columns.map((c) => {
        const o = own.get(c.name);
        const mine = {
          ...(o?.statistics !== undefined ? { statistics: o.statistics } : {}),
          ...(o?.storage !== undefined ? { storage: o.storage } : {}),
          ...(o?.options !== undefined ? { options: o.options } : {}),
        };
        const d = o?.default === undefined ? { ...c, ...mine } : { ...c, ...mine, default: o.default ?? undefined };
        if (o?.default === null) delete (d as { default?: string }).default;
        return c.inherited && (pkCols.has(c.name) || o?.notNull) ? { ...d, notNull: true } : d;
      }),
      inherits: parents.map((p) => p.id),
    };
  };
  for (const [key, mt] of Object.entries(m.tables)) {
    if (mt.inherited_columns && !mt.inherits)
      problems.error(['tables', key, 'inherited_columns'], 'needs_inherits', 'inherited_columns needs inherits', true);
    visit(key, []);
  }
  return out;
}
