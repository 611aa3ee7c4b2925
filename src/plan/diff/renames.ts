// Renames the manifest declares (`renamed_from` on tables, columns and indexes): while the cluster
// holds the former name and not the new one, the plan renames it (keeping its rows) instead of
// creating the new one and dropping the old. The rest of the diff then compares the manifest with
// the cluster as the renames leave it: this returns that model (every reference to a renamed table
// or column follows it) with the rename steps. Once renamed, `renamed_from` is a no-op. Pure.
import {
  idOf,
  type ClusterModel,
  type Column,
  type ForeignKey,
  type SqlObject,
  type Table,
} from '../../model/types.js';
import { quoteIdent, type QualifiedName } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { indexRef, parseRef, refText, sequenceRef } from '../../model/object-ref.js';

export interface Renamed {
  readonly actual: ClusterModel;
  readonly steps: Step[];
  readonly problems: DiffProblem[];
}

/** "relation app.old" → "relation app.new" (and its row type, its columns, a whole row) in reference names. */
function renameRef(ref: string, tables: ReadonlyMap<string, string>, columns: ReadonlyMap<string, string>): string {
  const r = parseRef(ref);
  if (r === undefined) return ref;
  if (r.kind === 'relation' || r.kind === 'type' || r.kind === 'row')
    return refText({ kind: r.kind, id: tables.get(r.id) ?? r.id });
  if (r.kind !== 'column') return ref;
  let moved = r.id;
  for (const [from, to] of tables) if (r.id.startsWith(`${from}.`)) moved = `${to}${r.id.slice(from.length)}`;
  return refText({ kind: 'column', id: columns.get(moved) ?? moved });
}

const mapCols = (cols: readonly string[], m: ReadonlyMap<string, string> | undefined): string[] =>
  cols.map((c) => m?.get(c) ?? c);

/** The model with tables (id → new id) and columns (table id → old → new) renamed everywhere they are named. */
function renamedModel(
  actual: ClusterModel,
  qnames: ReadonlyMap<string, QualifiedName>,
  tables: ReadonlyMap<string, string>,
  columns: ReadonlyMap<string, ReadonlyMap<string, string>>,
  indexes: ReadonlyMap<string, ReadonlyMap<string, string>>,
  sequences: ReadonlyMap<string, QualifiedName>,
): ClusterModel {
  const t = (id: string): string => tables.get(id) ?? id;
  const columnRefs = new Map<string, string>();
  for (const [table, m] of columns)
    for (const [from, to] of m) columnRefs.set(`${table}.${quoteIdent(from)}`, `${table}.${quoteIdent(to)}`);
  const out: Record<string, Table> = {};
  for (const a of Object.values(actual.tables)) {
    const id = t(a.id);
    const cm = columns.get(id);
    const im = indexes.get(id);
    const fk = (f: ForeignKey): ForeignKey => ({
      ...f,
      columns: mapCols(f.columns, cm),
      refTable: t(f.refTable),
      refColumns: mapCols(f.refColumns, columns.get(t(f.refTable))),
    });
    out[id] = {
      ...a,
      id,
      qname: qnames.get(id) ?? a.qname,
      ...(a.columns
        ? {
            columns: a.columns.map((c) => ({
              ...c,
              name: cm?.get(c.name) ?? c.name,
              ...(c.default !== undefined ? { default: withSequencesRenamed(c.default, sequences, actual) } : {}),
            })),
          }
        : {}),
      ...(a.primaryKey ? { primaryKey: { ...a.primaryKey, columns: mapCols(a.primaryKey.columns, cm) } } : {}),
      unique: a.unique.map((k) => ({ ...k, columns: mapCols(k.columns, cm) })),
      indexes: a.indexes.map((x) => ({
        ...x,
        columns: mapCols(x.columns, cm),
        ...(x.name !== undefined && im?.has(x.name) ? { name: im.get(x.name)! } : {}),
      })),
      foreignKeys: a.foreignKeys.map(fk),
      distribution:
        a.distribution.kind === 'hash'
          ? { ...a.distribution, column: cm?.get(a.distribution.column) ?? a.distribution.column }
          : a.distribution,
      ...(a.inherits ? { inherits: a.inherits.map(t) } : {}),
    };
  }
  // An index renamed is an object of the new name too ("index app.new").
  const indexRefs = new Map<string, string>();
  for (const [table, m] of indexes) {
    const schema = out[table]!.qname.schema;
    for (const [from, to] of m) indexRefs.set(indexRef({ schema, name: from }), indexRef({ schema, name: to }));
  }
  const ref = (r: string): string => indexRefs.get(r) ?? renameRef(r, tables, columnRefs);
  const objects: Record<string, SqlObject> = {};
  for (const o of Object.values(actual.objects)) {
    const id = indexRefs.get(o.id) ?? o.id;
    objects[id] = {
      ...o,
      id,
      ...(id !== o.id ? { name: id.slice('index '.length) } : {}),
      ...(o.parent !== undefined ? { parent: ref(o.parent) } : {}),
      deps: o.deps.map(ref),
      provides: o.provides.map(ref),
    };
  }
  return {
    ...actual,
    tables: out,
    objects,
    groups: Object.fromEntries(
      Object.entries(actual.groups).map(([k, g]) => [k, { ...g, anchor: t(g.anchor), members: g.members.map(t) }]),
    ),
    sequences: Object.fromEntries(
      Object.entries(actual.sequences).map(([k, s]) => {
        const moved = sequences.get(k);
        const seq = moved ? { ...s, id: idOf(moved), qname: moved } : s;
        return [
          seq.id,
          seq.ownedBy
            ? {
                ...seq,
                ownedBy: {
                  table: t(seq.ownedBy.table),
                  column: columns.get(t(seq.ownedBy.table))?.get(seq.ownedBy.column) ?? seq.ownedBy.column,
                },
              }
            : seq,
        ];
      }),
    ),
    routines: Object.fromEntries(
      Object.entries(actual.routines).map(([k, r]) => [
        k,
        r.distribution?.colocateWith !== undefined
          ? { ...r, distribution: { ...r.distribution, colocateWith: t(r.distribution.colocateWith) } }
          : r,
      ]),
    ),
    ...(actual.typeUsers
      ? {
          typeUsers: Object.fromEntries(Object.entries(actual.typeUsers).map(([k, v]) => [k, v.map(ref)])),
        }
      : {}),
  };
}

/** A default's `nextval('…'::regclass)` naming a renamed sequence, as the catalog prints it once renamed. */
function withSequencesRenamed(
  text: string,
  sequences: ReadonlyMap<string, QualifiedName>,
  actual: ClusterModel,
): string {
  let out = text;
  for (const [from, to] of sequences) {
    const old = actual.sequences[from]?.qname;
    if (!old) continue;
    // Printed with its schema unless that schema is public (the catalog is read with search_path public).
    const spell = (q: QualifiedName): string =>
      q.schema === 'public' ? quoteIdent(q.name) : `${quoteIdent(q.schema)}.${quoteIdent(q.name)}`;
    out = out
      .split(`'${spell(old).replace(/'/g, "''")}'::regclass`)
      .join(`'${spell(to).replace(/'/g, "''")}'::regclass`);
  }
  return out;
}

/** The renames `desired` declares that `actual` still needs, and `actual` as they leave it. */
export function renames(desired: ClusterModel, actual: ClusterModel): Renamed {
  const steps: Step[] = [];
  const problems: DiffProblem[] = [];
  const tables = new Map<string, string>();
  const qnames = new Map<string, QualifiedName>();
  for (const t of Object.values(desired.tables)) {
    if (t.renamedFrom === undefined) continue;
    const from = { schema: t.qname.schema, name: t.renamedFrom };
    const old = actual.tables[idOf(from)];
    if (!old) continue;
    if (actual.tables[t.id]) {
      problems.push({
        code: 'rename_both_exist',
        object: t.id,
        message: `declares renamed_from: ${t.renamedFrom}, and both ${idOf(from)} and ${t.id} exist: the plan cannot rename one into the other; drop or rename one of them by hand, or remove renamed_from`,
      });
      continue;
    }
    steps.push({ kind: 'rename_table', table: from, to: t.qname.name });
    tables.set(old.id, t.id);
    qnames.set(t.id, t.qname);
  }
  const columns = new Map<string, Map<string, string>>();
  const indexes = new Map<string, Map<string, string>>();
  for (const t of Object.values(desired.tables)) {
    const oldId = [...tables].find(([, to]) => to === t.id)?.[0] ?? t.id;
    const a = actual.tables[oldId];
    if (!a) continue;
    const have = new Set((a.columns ?? []).map((c) => c.name));
    for (const c of t.columns ?? []) {
      if (c.renamedFrom === undefined || !have.has(c.renamedFrom)) continue;
      if (have.has(c.name)) {
        problems.push({
          code: 'rename_both_exist',
          object: `${t.id}.${quoteIdent(c.name)}`,
          message: `declares renamed_from: ${c.renamedFrom}, and ${t.id} has both columns: the plan cannot rename one into the other; drop one by hand, or remove renamed_from`,
        });
        continue;
      }
      steps.push({ kind: 'rename_column', table: t.qname, column: c.renamedFrom, to: c.name });
      columns.set(t.id, (columns.get(t.id) ?? new Map<string, string>()).set(c.renamedFrom, c.name));
    }
    const names = new Set(a.indexes.flatMap((x) => (x.name !== undefined ? [x.name] : [])));
    for (const ix of t.indexes) {
      if (ix.renamedFrom === undefined || ix.name === undefined || !names.has(ix.renamedFrom) || names.has(ix.name))
        continue;
      steps.push({
        kind: 'rename_index',
        table: t.qname,
        index: { schema: t.qname.schema, name: ix.renamedFrom },
        to: ix.name,
      });
      indexes.set(t.id, (indexes.get(t.id) ?? new Map<string, string>()).set(ix.renamedFrom, ix.name));
    }
  }
  const sequences = sequenceRenames(desired, actual, tables, columns, steps, problems);
  if (steps.length === 0) return { actual, steps, problems };
  return { actual: renamedModel(actual, qnames, tables, columns, indexes, sequences), steps, problems };
}

/** The undeclared column of `a` at new column `c`'s place with its type: what `c` was likely called. */
export function likelyRenameOf(t: Table, a: Table, c: Column): string | undefined {
  const at = (t.columns ?? []).indexOf(c);
  const there = a.columns?.[at];
  const declared = new Set(
    (t.columns ?? []).flatMap((d) => [d.name, ...(d.renamedFrom !== undefined ? [d.renamedFrom] : [])]),
  );
  return there && !declared.has(there.name) && there.type.sql === c.type.sql ? there.name : undefined;
}

/**
 * Sequences renamed: those the manifest declares `renamed_from`, and a serial column's own
 * (`<table>_<column>_seq`, which PostgreSQL does not rename with its table or column: the next
 * plan would no longer see a serial), renamed with it. Former id → new name.
 */
function sequenceRenames(
  desired: ClusterModel,
  actual: ClusterModel,
  tables: ReadonlyMap<string, string>,
  columns: ReadonlyMap<string, ReadonlyMap<string, string>>,
  steps: Step[],
  problems: DiffProblem[],
): Map<string, QualifiedName> {
  const out = new Map<string, QualifiedName>();
  const rename = (from: QualifiedName, to: QualifiedName): void => {
    const id = idOf(from);
    if (!actual.sequences[id] || actual.sequences[idOf(to)] || out.has(id)) return;
    steps.push({ kind: 'rename_sequence', sequence: from, to: to.name });
    out.set(id, to);
  };
  for (const a of Object.values(actual.tables)) {
    const newId = tables.get(a.id) ?? a.id;
    const t = desired.tables[newId];
    if (!t) continue;
    for (const c of a.columns ?? []) {
      if (!c.type.serial) continue;
      const col = columns.get(newId)?.get(c.name) ?? c.name;
      if (newId === a.id && col === c.name) continue;
      rename(
        { schema: a.qname.schema, name: `${a.qname.name}_${c.name}_seq` },
        { schema: t.qname.schema, name: `${t.qname.name}_${col}_seq` },
      );
    }
  }
  for (const s of Object.values(desired.sequences)) {
    if (s.renamedFrom === undefined) continue;
    const from = { schema: s.qname.schema, name: s.renamedFrom };
    if (!actual.sequences[idOf(from)]) continue;
    if (actual.sequences[s.id]) {
      problems.push({
        code: 'rename_both_exist',
        object: sequenceRef(s.id),
        message: `declares renamed_from: ${s.renamedFrom}, and both ${idOf(from)} and ${s.id} exist: drop or rename one of them by hand, or remove renamed_from`,
      });
      continue;
    }
    rename(from, s.qname);
  }
  return out;
}
