// A partition's own primary key, unique constraints, foreign keys, column defaults and NOT NULLs,
// declared in the `sql:` files (ALTER TABLE ONLY partition ADD CONSTRAINT / ALTER COLUMN …) as
// pg_dump prints them: accepted on a partition the manifest declares, refused on anything else (a
// table's are declared on the table), and held to the rules PostgreSQL and Citus hold the parent's
// to: columns of the table, a distributed parent's keys include its distribution column, a foreign
// key Citus can enforce, no default on a distribution column (Citus refuses the ALTER). One the
// partition has from its table anyway (the same default, a NOT NULL column) is refused: the
// catalog would never show it as the partition's own, and every plan would set it again.
import { partitionQname, type SqlObject, type Table } from '../model/types.js';
import { relationRef } from '../model/object-ref.js';
import { quoteIdent } from '../sql/quote.js';
import type { ProblemList } from './problems.js';
import { foreignKeyRefusal } from './resolve-keys.js';
import { objectKey } from '../objects/key.js';

const PARTITION_KINDS = new Set<SqlObject['kind']>([
  'primary key',
  'unique constraint',
  'foreign key',
  'column default',
  'not null',
  'column compression',
  'column setting',
]);

type Problem = { code: string; message: string };

function columnProblem(o: SqlObject, parent: Table, name: string): Problem | undefined {
  const column = parent.columns?.find((x) => x.name === name);
  const d = parent.distribution;
  // A partition's own SET STATISTICS / STORAGE / (…): Citus refuses some at plan time (citus-alter-refusals.ts).
  if (o.kind === 'column setting') return undefined;
  if (o.kind === 'column compression') {
    const method = /SET COMPRESSION\s+"?(\w+)"?\s*;?\s*$/i.exec(o.create[0] ?? '')?.[1]?.toLowerCase();
    return method === (column?.compression ?? 'default')
      ? {
          code: 'redundant_statement',
          message: `it is the COMPRESSION ${parent.id}.${quoteIdent(name)} has: the partition has it from its table`,
        }
      : undefined;
  }
  if (o.kind === 'not null')
    return column?.notNull
      ? {
          code: 'redundant_statement',
          message: `${parent.id}.${quoteIdent(name)} is NOT NULL already: the partition has it from its table`,
        }
      : undefined;
  if (d.kind === 'hash' && d.column === name)
    return {
      code: 'citus_refuses_alter',
      message: `${quoteIdent(name)} is the distribution column of ${parent.id}: Citus refuses SET / DROP DEFAULT on it ("cannot execute ALTER TABLE command involving partition column")`,
    };
  const mine = o.create[0] ?? '';
  const same = (def: string | undefined): string =>
    mine.replace(
      /ALTER COLUMN .*$/is,
      `ALTER COLUMN ${quoteIdent(name)} ${def === undefined ? 'DROP DEFAULT' : `SET DEFAULT ${def}`}`,
    );
  if (column && objectKey([mine], o.searchPath) === objectKey([same(column.default)], o.searchPath))
    return {
      code: 'redundant_statement',
      message: `it is the default ${parent.id}.${quoteIdent(name)} has: the partition has it from its table`,
    };
  return undefined;
}

function problemOf(o: SqlObject, parent: Table, tables: Readonly<Record<string, Table>>): Problem | undefined {
  const c = o.constraint;
  if (!c) return undefined;
  const own = parent.columns ? new Set(parent.columns.map((x) => x.name)) : undefined;
  const unknown = own ? c.columns.find((x) => !own.has(x)) : undefined;
  if (unknown !== undefined)
    return { code: 'unknown_column', message: `column ${quoteIdent(unknown)} is not a column of ${parent.id}` };
  const d = parent.distribution;
  if (['column default', 'not null', 'column compression', 'column setting'].includes(o.kind))
    return columnProblem(o, parent, c.columns[0]!);
  if (o.kind !== 'foreign key') {
    if (d.kind === 'hash' && !c.columns.includes(d.column))
      return {
        code: 'key_without_distribution_column',
        message: `(${c.columns.join(', ')}) does not include the distribution column ${quoteIdent(d.column)} of ${parent.id}: Citus refuses it ("Distributed relations cannot have UNIQUE, EXCLUDE, or PRIMARY KEY constraints that do not include the partition column")`,
      };
    return undefined;
  }
  const to = c.refTable !== undefined ? tables[c.refTable] : undefined;
  if (!to) return undefined; // a table the manifest does not declare: PostgreSQL checks it
  const refColumns = c.refColumns ?? to.primaryKey?.columns;
  if (refColumns === undefined) return undefined;
  if (refColumns.length !== c.columns.length)
    return { code: 'fk_arity', message: `${c.columns.length} columns reference ${refColumns.length} of ${to.id}` };
  const why = foreignKeyRefusal(parent, to, { columns: c.columns, refColumns });
  return why ? { code: 'foreign_key_refused', message: why } : undefined;
}

/** Problems of the partition keys the SQL files declare (located at their statements). */
export function checkPartitionKeys(
  objects: Readonly<Record<string, SqlObject>>,
  tables: Readonly<Record<string, Table>>,
  problems: ProblemList,
  sqlEntries: readonly string[],
): void {
  const parentOf = new Map<string, Table>();
  for (const t of Object.values(tables))
    for (const p of t.partitions ?? []) parentOf.set(relationRef(partitionQname(t, p)), t);
  for (const o of Object.values(objects)) {
    if (!PARTITION_KINDS.has(o.kind) || o.parent === undefined) continue;
    const parent = parentOf.get(o.parent);
    // A materialized view's column COMPRESSION is its own (ALTER MATERIALIZED VIEW … SET COMPRESSION).
    if (
      !parent &&
      o.kind === 'column compression' &&
      objects[`materialized view ${o.parent.slice('relation '.length)}`]
    )
      continue;
    // So are its column's SET STATISTICS, SET STORAGE and SET (…) (a partition's are checked below).
    const rel = o.parent.slice('relation '.length);
    if (
      !parent &&
      o.kind === 'column setting' &&
      (objects[`materialized view ${rel}`] || objects[`foreign table ${rel}`])
    )
      continue;
    // So is a view's column default (ALTER VIEW … ALTER COLUMN … SET DEFAULT).
    if (!parent && o.kind === 'column default' && objects[`view ${o.parent.slice('relation '.length)}`]) continue;
    const p: Problem | undefined = parent
      ? problemOf(o, parent, tables)
      : {
          code: 'unsupported_statement',
          message: `in an SQL file only a partition's own key, foreign key, column default, NOT NULL, COMPRESSION, SET STATISTICS, SET STORAGE or SET (…) is declared (ALTER TABLE ONLY partition …), a materialized view's column COMPRESSION, a materialized view's or foreign table's column SET STATISTICS, SET STORAGE or SET (…), or a view's column default, and ${o.parent.replace(/^relation /, '')} is neither a partition nor a view or materialized view the manifest declares; declare a table's on the table in the manifest`,
        };
    if (!p) continue;
    const i = sqlEntries.findIndex((e) => o.source?.startsWith(e));
    problems.error(['sql', Math.max(0, i)], p.code, `${o.source ?? '?'}: ${o.id}: ${p.message}`);
  }
}
