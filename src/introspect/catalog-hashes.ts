// What the catalog document says beside the model's objects: per-object hashes (a saved plan's and
// apply's read guard compare them) and who owns what a GRANT / REVOKE may name.
import type { CatalogDoc } from '../model/catalog-doc.js';
import { routineRef, sequenceRef, tableRef } from '../model/object-ref.js';
import type { Owners } from '../model/owner.js';
import { routineId } from '../model/types.js';
import { dict } from '../util/dict.js';
import { sha256Hex } from '../util/sha256.js';

// The catalog document's keys come in a fixed order (the query builds them, zod keeps its shape's
// order), so JSON.stringify is stable here and several times faster than stableJson.
const shortHash = (v: unknown): string => sha256Hex(JSON.stringify(v)).slice(0, 16);

/** Who owns what a GRANT / REVOKE may name (model/owner.ts). */
export const ownersOf = (doc: CatalogDoc): Owners => ({
  ...(doc.reader ? { reader: doc.reader } : {}),
  ...(doc.owners ? { owners: Object.fromEntries(doc.owners.map(([k, n, o]) => [`${k} ${n}`, o])) } : {}),
});

/** Per-object hashes of a catalog document. */
export function objectHashes(doc: CatalogDoc): Record<string, string> {
  const out = dict<string>();
  // Planner statistics change with every ANALYZE: a saved plan is not stale for that.
  for (const { rows: _rows, bytes: _bytes, ...t } of doc.tables) out[tableRef(t)] = shortHash(t);
  // Every nextval moves an identity sequence's last value: only whether it was ever used counts
  // (a plan may RESTART an unused one).
  for (const { lastValue, ...s } of doc.sequences)
    out[sequenceRef(s)] = shortHash(lastValue ? { ...s, used: lastValue !== 'unused' } : s);
  for (const r of doc.routines) out[routineRef(routineId(r, r.argTypes))] = shortHash(r);
  for (const o of doc.objects ?? []) out[`${o.kind} ${o.name}`] = shortHash(o);
  if (doc.eventTriggers) out['event triggers'] = shortHash(doc.eventTriggers);
  if (doc.owners) out.owners = shortHash(doc.owners);
  if (doc.extensionAcls) out['extension privileges'] = shortHash(doc.extensionAcls);
  out.nodes = shortHash(doc.nodes);
  out.schemas = shortHash(doc.schemas);
  out.server = shortHash(doc.server);
  out['objects not managed'] = shortHash(doc.notManaged ?? []);
  return out;
}
