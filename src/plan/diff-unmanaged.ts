// What the cluster holds that the manifest does not declare: whole objects (tables, routines,
// sequences: dropped with prune) and parts of declared tables (columns and indexes: dropped
// with prune; keys and foreign keys: never dropped). All are named in the plan, never hidden.
import { sameFk, sameIndex, sameList, sameSet } from '../model/same.js';
import type { ClusterModel, Routine, Sequence, Table } from '../model/types.js';
import { quoteIdent } from '../sql/quote.js';
import { constraintKey } from './diff-foreign-keys.js';
import { routineRef, sequenceRef, tableRef } from '../model/object-ref.js';

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

/**
 * Parts of tables declared with columns that the manifest does not list. With prune, columns
 * and indexes are dropped by the plan instead, so only keys and foreign keys are named.
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
      for (const c of a.columns ?? []) if (!want.has(c.name)) out.push(`column ${t.id}.${quoteIdent(c.name)}`);
      for (const x of a.indexes) {
        if (!t.indexes.some((ix) => sameIndex(x, ix)))
          out.push(
            `index ${x.name ? quoteIdent(x.name) : ''} on ${t.id} ${cols(x.columns)}`.replace('index  on', 'index on'),
          );
      }
    }
    const kept = (name: string | undefined): boolean => name === undefined || !replaced.has(constraintKey(t.id, name));
    if (a.primaryKey && !t.primaryKey) out.push(`primary key on ${t.id} ${cols(a.primaryKey.columns)}`);
    for (const u of a.unique) {
      if (
        kept(u.name) &&
        !t.unique.some((x) => sameSet(x.columns, u.columns)) &&
        !(t.primaryKey && sameList(t.primaryKey.columns, u.columns))
      )
        out.push(`unique constraint on ${t.id} ${cols(u.columns)}`);
    }
    for (const fk of a.foreignKeys) {
      // A declared name is compared too: the same key under another name is renamed by the plan.
      if (kept(fk.name) && !t.foreignKeys.some((x) => sameFk(x, fk) && (x.name === undefined || x.name === fk.name)))
        out.push(
          `foreign key ${fk.name ? `${quoteIdent(fk.name)} ` : ''}on ${t.id} ${cols(fk.columns)} -> ${fk.refTable} ${cols(fk.refColumns)}`,
        );
    }
  }
  return out;
}
