// Grants on a routine dropped and created again (a new result type or argument list) follow it
// to the signature it becomes, so an application role does not lose EXECUTE.
import type { ClusterModel, SqlObject } from '../../model/types.js';

/**
 * The grants of a routine this plan drops and creates again, as granted on the signature it
 * becomes; 'declared' when the manifest declares them there; undefined when they are on another
 * overload (not affected).
 */
export function movedGrants(
  a: SqlObject,
  moved: ReadonlyMap<string, string>,
  desired: ClusterModel,
): SqlObject | 'declared' | undefined {
  for (const [from, to] of moved) {
    for (const kind of ['function', 'procedure'] as const) {
      const prefix = `privileges ${kind} ${from} `;
      if (!a.id.startsWith(prefix)) continue;
      const toKind = desired.routines[to]?.kind ?? kind;
      const id = `privileges ${toKind} ${to} ${a.id.slice(prefix.length)}`;
      if (desired.objects[id]) return 'declared';
      const on = (k: string, sig: string): string => ` ON ${k.toUpperCase()} ${sig}`;
      return {
        ...a,
        id,
        name: id.slice('privileges '.length),
        create: a.create.map((st) => st.split(on(kind, from)).join(on(toKind, to))),
      };
    }
  }
  return undefined;
}
