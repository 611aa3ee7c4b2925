// Owners in the diff of objects defined by SQL (objects/owner-objects.ts): an owner declared as
// the role that applies is no object (the catalog reads none then, as CREATE leaves it), and
// gives back what another role owns now; any other is given in place, never dropped and made again.
import { dict } from '../../util/dict.js';
import type { ClusterModel, SqlObject } from '../../model/types.js';
import type { Step } from '../steps/steps.js';
import { ownerRole } from '../../objects/owner-objects.js';

/**
 * The desired objects less the owners declared as the role that applies (what CREATE gives: the
 * catalog reads no owner object then), and of those, the ones another role owns now (by id, to
 * their object): given back.
 */
export function readerOwners(
  desired: ClusterModel,
  actual: ClusterModel,
  ignore: (id: string) => boolean,
): { D: Record<string, SqlObject>; toReader: Map<string, string | undefined> } {
  const D = dict<SqlObject>();
  const toReader = new Map<string, string | undefined>();
  for (const d of Object.values(desired.objects)) {
    if (d.kind !== 'owner' || actual.reader === undefined || ownerRole(d) !== actual.reader) {
      D[d.id] = d;
      continue;
    }
    const a = actual.objects[d.id];
    if (a && !ignore(a.id)) toReader.set(d.id, d.parent);
  }
  // Grants come after the owner is given (ALTER … OWNER TO hands the former owner's privileges to
  // the new one: a REVOKE from the new owner before it would be undone).
  const owners = new Map(
    Object.values(D)
      .filter((o) => o.kind === 'owner' && o.parent !== undefined)
      .map((o) => [o.parent!, o.id]),
  );
  for (const d of Object.values(D)) {
    const owner = d.kind === 'privileges' && d.parent !== undefined ? owners.get(d.parent) : undefined;
    if (owner) D[d.id] = { ...d, deps: [...d.deps, owner] };
  }
  return { D, toReader };
}

/** The step that gives an object to the role the owner object `d` (desired) names. */
export const ownerChange = (d: SqlObject): Step => ({
  kind: 'alter_object',
  object: d.id,
  objectKind: 'owner',
  statements: d.create,
  what: 'change',
  ...(d.searchPath !== undefined ? { searchPath: d.searchPath } : {}),
});
/** The steps that give back to the role that applies what `toReader` names, unless its object is made again (it is then the applier's). */
export function givenBack(
  toReader: ReadonlyMap<string, string | undefined>,
  recreated: readonly SqlObject[],
  desired: ClusterModel,
): Step[] {
  const madeAgain = new Set(recreated.flatMap((a) => [a.id, ...a.provides]));
  return [...toReader]
    .filter(([, parent]) => parent === undefined || !madeAgain.has(parent))
    .map(([id]) => ownerChange(desired.objects[id]!));
}

/** Whether the files give object `d` to the role that applies (made again, it is not given back to its former owner). */
export const givenToReader = (d: SqlObject, toReader: ReadonlyMap<string, string | undefined>): boolean =>
  d.provides.some((p) => [...toReader.values()].includes(p));

/** Changes in place with the owners' first (grants changed after them are not undone by them). */
export const ownersFirst = (alters: readonly Step[]): Step[] =>
  [...alters].sort(
    (x, y) =>
      Number(y.kind === 'alter_object' && y.objectKind === 'owner') -
      Number(x.kind === 'alter_object' && x.objectKind === 'owner'),
  );
