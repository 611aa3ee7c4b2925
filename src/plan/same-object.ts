// Whether an object of the sql: files is what the cluster holds: the same statements, the same
// parse trees once normalised, or what the last apply recorded that this definition became.
import { sha256Hex } from '../util/sha256.js';
import type { SqlObject } from '../model/types.js';
import { objectKey } from '../objects/key.js';
import { sameUserMapping } from '../objects/user-mapping.js';
import { subscriptionChange } from '../objects/subscription.js';
/** What the last apply recorded for an object: hashes of the desired and the resulting definitions. */
import type { RecordedObject } from '../model/live-state.js';
export type { RecordedObject };

export const keyHash = (key: string): string => sha256Hex(key).slice(0, 32);

/** True when the actual object is what the desired one declares. */
export function sameObject(d: SqlObject, a: SqlObject, recorded: RecordedObject | undefined): boolean {
  if (a.invalid) return false; // an index a failed build left invalid (not used, nor enforced): built again
  // Its secrets by digest, never by value (objects/user-mapping.ts).
  if (d.kind === 'user mapping') return sameUserMapping(d, a);
  // By what PostgreSQL keeps of it, its connection by digest (objects/subscription.ts).
  if (d.kind === 'subscription') {
    const change = subscriptionChange(d, a);
    return Array.isArray(change) && change.length === 0;
  }
  if (d.kind === 'enum') return JSON.stringify(d.labels ?? []) === JSON.stringify(a.labels ?? []);
  if (d.kind === 'extension') {
    return (
      (d.extension?.schema === undefined || d.extension.schema === a.extension?.schema) &&
      (d.extension?.version === undefined || d.extension.version === a.extension?.version)
    );
  }
  // The catalog is read with search_path = public: an unqualified name there is in public. The
  // same text under the same search_path has the same key (what introspect wrote, unchanged):
  // no need to parse either.
  const path = d.searchPath ?? 'public';
  if (path === 'public' && d.create.length === a.create.length && d.create.every((s, i) => s === a.create[i]))
    return true;
  const kd = objectKey(d.create, d.searchPath);
  const ka = objectKey(a.create, 'public');
  if (kd === ka) return true;
  // PostgreSQL prints some definitions its own way (a view's query, above all): the last apply
  // recorded what this definition became, so an unchanged declaration is not planned again.
  return recorded !== undefined && recorded.desired === keyHash(kd) && recorded.actual === keyHash(ka);
}
