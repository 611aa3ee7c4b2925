// What an online type change an interrupted apply left (retype.ts): found in the cluster by its
// marker and shadow column, hidden from the diff with its trigger and function, and dropped by a
// plan that does not go on with it. Pure.
import { relationRef } from '../model/object-ref.js';
import { idOf, type ClusterModel, type SqlObject, type Table } from '../model/types.js';
import { addedCheck } from '../objects/statement-parts.js';
import { dict } from '../util/dict.js';
import { withoutSync } from './fill.js';
import { retypeNames, SHADOW, MARKER, type PendingRetype } from './retype.js';
import type { Step } from './steps/steps.js';

/** An online type change an interrupted apply left: the marker on a table with the column and its shadow. */
function asPending(o: SqlObject, actual: ClusterModel): PendingRetype | undefined {
  if (o.kind !== 'check constraint' || o.create.length !== 1 || !o.name.includes(MARKER)) return undefined;
  const check = addedCheck(o.create[0]!, 'public');
  const t = check && actual.tables[idOf(check.table)];
  if (!check || !t) return undefined;
  const c = t.columns?.find((x) => retypeNames(x.name).marker === check.name);
  const shadow = c && t.columns?.find((x) => x.name === retypeNames(c.name).shadow);
  if (!c || !shadow) return undefined;
  return {
    table: t.qname,
    column: c.name,
    shadow: shadow.name,
    type: shadow.type.sql,
    marker: check.name,
    validated: !check.notValid,
    indexes: t.indexes.filter((ix) => ix.name?.startsWith(SHADOW) && !ix.invalid).map((ix) => ix.name!),
  };
}

/** The online type changes an interrupted apply left, and the cluster without their shadows, triggers and markers. */
export function pendingRetypes(actual: ClusterModel): { actual: ClusterModel; pending: PendingRetype[] } {
  const pending = Object.values(actual.objects).flatMap((o) => asPending(o, actual) ?? []);
  if (pending.length === 0) return { actual, pending };
  let model: ClusterModel = actual;
  for (const p of pending) {
    const parent = relationRef(p.table);
    const objects = dict<SqlObject>();
    for (const [id, o] of Object.entries(model.objects))
      if (!(o.parent === parent && o.kind === 'check constraint' && o.name.endsWith(p.marker))) objects[id] = o;
    const t = model.tables[idOf(p.table)]!;
    const shadowless: Table = {
      ...t,
      columns: t.columns?.filter((c) => c.name !== p.shadow),
      indexes: t.indexes.filter((ix) => !ix.name?.startsWith(SHADOW) || !ix.columns.includes(p.shadow)),
    };
    model = withoutSync({ ...model, objects, tables: { ...model.tables, [t.id]: shadowless } }, p.table, p.column);
  }
  return { actual: model, pending };
}

/**
 * The plan with the online type changes an interrupted apply left that it does not go on with
 * (the manifest no longer asks for that type, or not online) dropped first, in the transaction.
 */
export function withPendingRetypes(steps: readonly Step[], pending: readonly PendingRetype[]): Step[] {
  // Gone on with (its swap planned), or dropped already (the online plan begins another type).
  const finished = (p: PendingRetype): boolean =>
    steps.some(
      (s) =>
        ((s.kind === 'finish_retype' && s.type === p.type) || s.kind === 'abort_retype') &&
        idOf(s.table) === idOf(p.table) &&
        s.column === p.column,
    );
  const aborted: Step[] = pending
    .filter((p) => !finished(p))
    .map((p) => ({ kind: 'abort_retype', table: p.table, column: p.column, shadow: p.shadow, type: p.type }));
  return [...aborted, ...steps];
}
