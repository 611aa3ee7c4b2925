// What the cluster holds that the manifest does not declare: whole objects (tables, routines,
// sequences: dropped with prune) and parts of declared tables (columns, indexes, keys and
// foreign keys: dropped with prune when declared with columns; diff/prune-keys.ts says which keys
// it cannot drop). Whatever the plan does not drop is named, never hidden.
import { sameFk, sameIndex, sameSet } from '../../model/same.js';
import type { ClusterModel, ForeignKey, Key, Routine, Sequence, Table } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import { constraintKey } from '../../model/key-names.js';
import { columnRef, routineRef, sequenceRef, tableRef } from '../../model/object-ref.js';

/** Objects in the cluster the manifest does not declare (and does not ignore). */
export function unmanagedObjects(
  desired: ClusterModel,
  actual: ClusterModel,
  ignored: (text: string) => boolean,
): { tables: Table[]; routines: Routine[]; sequences: Sequence[] } {
  const ownedByKnown = (s: Sequence): boolean =>
    s.ownedBy !== undefined && actual.tables[s.ownedBy.table] !== undefined;
  return {
    tables: Object.values(actual.tables).filter((t) => !desired.tables[t.id] && !ignored(tableRef(t.id))),
    routines: Object.values(actual.routines).filter(
      (r) =>
        !desired.routines[r.id] &&
        !Object.values(desired.routines).some(
          (d) => d.argTypes === undefined && d.qname.schema === r.qname.schema && d.qname.name === r.qname.name,
        ) &&
        !ignored(routineRef(r.id)),
    ),
    sequences: Object.values(actual.sequences).filter(
      (s) => !desired.sequences[s.id] && !ownedByKnown(s) && !ignored(sequenceRef(s.id)),
    ),
  };
}

const cols = (c: readonly string[]): string => `(${c.map(quoteIdent).join(', ')})`;

/** The line a plan prints for a primary key or unique constraint of table `id` (and `ignore:` globs match). */
export const keyLine = (what: 'primary key' | 'unique constraint', id: string, k: Key): string =>
  `${what} on ${id} ${cols(k.columns)}`;

/** The line a plan prints for a foreign key of table `id`. */
export const fkLine = (id: string, fk: ForeignKey): string =>
  `foreign key ${fk.name ? `${quoteIdent(fk.name)} ` : ''}on ${id} ${cols(fk.columns)} -> ${fk.refTable} ${cols(fk.refColumns)}`;

/** Whether actual unique constraint `u` of declared table `t` is not declared (one on the primary key's columns too). */
export const undeclaredUnique = (t: Table, u: Key): boolean => !t.unique.some((x) => sameSet(x.columns, u.columns));

/** Whether actual foreign key `fk` of declared table `t` is not declared; a declared name is compared too (the same key under another name is renamed by the plan). */
export const undeclaredFk = (t: Table, fk: ForeignKey): boolean =>
  !t.foreignKeys.some((x) => sameFk(x, fk) && (x.name === undefined || x.name === fk.name));

/**
 * Parts of tables declared with columns that the manifest does not list. With prune, columns
 * and indexes are dropped by the plan instead, and so are the keys and foreign keys in
 * `replaced` (those the plan drops: to add them again, or pruned): the rest is named.
 */
export function unmanagedParts(
  desired: ClusterModel,
  actual: ClusterModel,
  prune: boolean,
  replaced: ReadonlySet<string> = new Set(),
): string[] {
  const out: string[] = [];
  for (const t of Object.values(desired.tables)) {
    const a = actual.tables[t.id];
    if (!a || !t.columns) continue; // declared without columns: its structure is managed elsewhere
    if (!prune) {
      const want = new Set(t.columns.map((c) => c.name));
      for (const c of a.columns ?? []) if (!want.has(c.name)) out.push(columnRef(t.id, c.name));
      for (const x of a.indexes) {
        if (!t.indexes.some((ix) => sameIndex(x, ix)))
          out.push(
            `index ${x.name ? quoteIdent(x.name) : ''} on ${t.id} ${cols(x.columns)}`.replace('index  on', 'index on'),
          );
      }
    }
    const kept = (name: string | undefined): boolean => name === undefined || !replaced.has(constraintKey(t.id, name));
    if (a.primaryKey && !t.primaryKey && kept(a.primaryKey.name)) out.push(keyLine('primary key', t.id, a.primaryKey));
    for (const u of a.unique)
      if (kept(u.name) && undeclaredUnique(t, u)) out.push(keyLine('unique constraint', t.id, u));
    for (const fk of a.foreignKeys) if (kept(fk.name) && undeclaredFk(t, fk)) out.push(fkLine(t.id, fk));
  }
  return out;
}
