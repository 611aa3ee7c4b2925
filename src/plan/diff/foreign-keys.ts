// Foreign keys of declared tables: added when missing, dropped and added again when one changes
// under its name (ADD CONSTRAINT of a name the table holds fails: "constraint … already
// exists"), and dropped and added again around a key they reference that this plan replaces
// (DROP CONSTRAINT of that key fails while they depend on it).
import { constraintKey } from '../../model/key-names.js';
import { sameDeferral, sameFk, sameSet } from '../../model/same.js';
import { idOf, type ClusterModel, type ForeignKey, type Table } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** The actual key columns each replaced key (drop_constraint of a key, by `constraintKey`) had. */
function replacedKeys(steps: readonly Step[], actual: ClusterModel): { table: string; columns: readonly string[] }[] {
  const out: { table: string; columns: readonly string[] }[] = [];
  for (const s of steps) {
    if (s.kind !== 'drop_constraint' || s.constraint === 'foreign key') continue;
    const t = actual.tables[idOf(s.table)];
    const k = [...(t?.primaryKey ? [t.primaryKey] : []), ...(t?.unique ?? [])].find((x) => x.name === s.name);
    if (t && k) out.push({ table: t.id, columns: k.columns });
  }
  return out;
}

/**
 * The actual foreign key a declared one that no actual key equals stands for: the one of its
 * name, or (unnamed) the one on the same columns to the same table that nothing declared equals.
 */
function formerFk(t: Table, a: Table, fk: ForeignKey): ForeignKey | undefined {
  if (fk.name !== undefined) return a.foreignKeys.find((x) => x.name === fk.name);
  return a.foreignKeys.find(
    (x) =>
      x.refTable === fk.refTable &&
      sameSet(x.columns, fk.columns) &&
      !t.foreignKeys.some((y) => sameFk(x, y) || (y.name !== undefined && y.name === x.name)),
  );
}

/** Whether another foreign key the manifest declares on `t` has the name of actual key `x`. */
const claimedByAnother = (t: Table, fk: ForeignKey, x: ForeignKey): boolean =>
  x.name !== undefined && t.foreignKeys.some((y) => y !== fk && y.name === x.name);

/**
 * Steps for the foreign keys of the declared tables that exist or are created (`present`):
 * `drops` run first (drop_objects), `adds` with the foreign keys; `replaced` names the actual
 * constraints (constraintKey) that are dropped to be added again, so they are not unmanaged.
 * `keyDrops` are the keys the plan drops (to add them again, or pruned); `pruned`, the foreign
 * keys prune drops (no problem when they reference a dropped key).
 */
export function foreignKeySteps(
  desired: ClusterModel,
  actual: ClusterModel,
  present: (id: string) => boolean,
  keyDrops: readonly Step[],
  problems: DiffProblem[],
  pruned: (table: string, name: string) => boolean = () => false,
): { drops: Step[]; adds: Step[]; replaced: Set<string> } {
  const drops: Step[] = [];
  const adds: Step[] = [];
  const replaced = new Set<string>();
  // By table: a prune may drop a key of every table, and every foreign key asks.
  const keys = new Map<string, (readonly string[])[]>();
  for (const k of replacedKeys(keyDrops, actual)) keys.set(k.table, [...(keys.get(k.table) ?? []), k.columns]);
  for (const s of keyDrops) if (s.kind === 'drop_constraint') replaced.add(constraintKey(idOf(s.table), s.name));
  const onReplacedKey = (fk: ForeignKey): boolean =>
    (keys.get(fk.refTable) ?? []).some((c) => sameSet(c, fk.refColumns));
  const handled = new Set<ForeignKey>();
  for (const t of Object.values(desired.tables)) {
    if (!present(t.id)) continue;
    const a = actual.tables[t.id];
    const have = a?.foreignKeys ?? [];
    for (const fk of t.foreignKeys) {
      const refTable = desired.tables[fk.refTable]!.qname;
      const add: Step = { kind: 'add_foreign_key', table: t.qname, fk, refTable };
      const same = have.filter((x) => sameFk(x, fk) && !claimedByAnother(t, fk, x));
      const named = fk.name !== undefined ? same.find((x) => x.name === fk.name) : undefined;
      let found = named ?? same.find((x) => sameDeferral(x, fk)) ?? same[0];
      // The same key under another name: renamed, unless the name is taken by another one (that
      // one is then the former key, dropped and added again as declared).
      if (found && !named && fk.name !== undefined && found.name !== undefined) {
        if (have.some((x) => x.name === fk.name)) found = undefined;
        else {
          handled.add(found);
          replaced.add(constraintKey(t.id, found.name));
          // Citus refuses ALTER TABLE … RENAME CONSTRAINT on its tables: dropped and added there.
          if (a?.distribution.kind === 'local' && !onReplacedKey(found)) {
            adds.push({ kind: 'rename_constraint', table: t.qname, from: found.name, to: fk.name });
            found = { ...found, name: fk.name };
          } else {
            drops.push({
              kind: 'drop_constraint',
              table: t.qname,
              name: found.name,
              constraint: 'foreign key',
              reason: 'changed',
            });
            adds.push(add);
            continue;
          }
        }
      }
      const former = found ?? (a ? formerFk(t, a, fk) : undefined);
      if (former && (!found || onReplacedKey(former)) && former.name !== undefined) {
        handled.add(former);
        replaced.add(constraintKey(t.id, former.name));
        drops.push({
          kind: 'drop_constraint',
          table: t.qname,
          name: former.name,
          constraint: 'foreign key',
          reason: found ? 'dependent' : 'changed',
        });
        adds.push(add);
      } else if (!found) adds.push(add);
      // Only DEFERRABLE / INITIALLY DEFERRED differ: dropped and added again in one step.
      else if (!sameDeferral(found, fk) && found.name !== undefined)
        adds.push({
          kind: 'replace_constraint',
          table: t.qname,
          name: fk.name ?? found.name,
          constraint: { kind: 'foreign key', fk, refTable },
        });
      // Added NOT VALID by an online apply that stopped before validating it (online.ts moves
      // the validation after COMMIT for an online table), unless the manifest declares not_valid.
      else if (found.notValid && !fk.notValid && found.name !== undefined)
        adds.push({ kind: 'validate_constraint', table: t.qname, name: found.name });
    }
  }
  // A foreign key the manifest does not declare that references a replaced key: PostgreSQL
  // refuses to drop the key under it, and the plan does not drop what it does not manage
  // (unless prune drops it first: `pruned`).
  for (const t of Object.values(actual.tables))
    for (const fk of t.foreignKeys)
      if (!handled.has(fk) && onReplacedKey(fk) && !(fk.name !== undefined && pruned(t.id, fk.name)))
        problems.push({
          code: 'dependent_foreign_key',
          object: `foreign key ${fk.name !== undefined ? `${quoteIdent(fk.name)} ` : ''}on ${t.id}`,
          message: `references the key of ${fk.refTable} (${fk.refColumns.map(quoteIdent).join(', ')}) that this plan drops and adds again, and the manifest does not declare it: declare it (so it is added again) or drop it first`,
        });
  return { drops, adds, replaced };
}
