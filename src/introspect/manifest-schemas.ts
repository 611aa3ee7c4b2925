// The `schemas:` entry of an introspected manifest: distributed schemas, and schemas that nothing
// else the manifest declares lives in (an empty schema is an object too: without an entry, the
// manifest would not create it elsewhere and a plan would list it as unmanaged).
import type { ClusterModel } from '../model/types.js';
import { quoteIdent } from '../sql/quote.js';
import { dict } from '../util/dict.js';

/** Schemas by name as the manifest declares them (`{}`: it only has to exist); undefined when none. */
export function schemasEntry(
  m: ClusterModel,
  defaultSchema: string,
  objectsWritten: boolean,
): Record<string, { distributed?: true }> | undefined {
  const occupied = new Set([
    defaultSchema,
    ...Object.values(m.tables).map((t) => t.qname.schema),
    ...Object.values(m.sequences).map((s) => s.qname.schema),
    ...Object.values(m.routines).map((r) => r.qname.schema),
  ]);
  const named = objectsWritten ? Object.values(m.objects).map((o) => o.name) : [];
  const holdsObject = (schema: string): boolean => named.some((n) => n.startsWith(`${quoteIdent(schema)}.`));
  const distributed = new Set(m.distributedSchemas ?? []);
  const out = dict<{ distributed?: true }>();
  for (const s of m.schemas) {
    if (distributed.has(s)) out[s] = { distributed: true };
    else if (!occupied.has(s) && !holdsObject(s)) out[s] = {};
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
