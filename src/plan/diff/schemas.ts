// Schemas the manifest does not declare are objects like the rest: listed as unmanaged, and
// with prune dropped (DROP SCHEMA, no CASCADE) once the plan drops everything in them. A schema
// that keeps something the plan does not drop (an ignored object, an object of a kind the tool
// does not manage, a sequence still in use) is listed instead, never dropped with it.
import type { ClusterModel } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import type { Step } from '../steps/steps.js';
import { refId, routineRef, schemaRef, sequenceRef, tableRef } from '../../model/object-ref.js';

/** Steps dropping the undeclared schemas the plan empties (with prune), and the lines naming the others. */
export function unmanagedSchemaSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  steps: readonly Step[],
  opts: { readonly prune: boolean; readonly ignored: (text: string) => boolean },
): { steps: Step[]; unmanaged: string[] } {
  const want = new Set(desired.schemas);
  const dropped = new Set<string>();
  for (const s of steps) {
    if (s.kind === 'drop_table') dropped.add(tableRef(s.table));
    else if (s.kind === 'drop_sequence') dropped.add(sequenceRef(s.sequence));
    else if (s.kind === 'drop_routine' && s.reason === 'prune') dropped.add(routineRef(s.signature));
    else if (s.kind === 'drop_object' && s.reason !== 'recreate' && s.reason !== 'invalid') dropped.add(s.object);
  }
  const tableGone = (id: string): boolean => dropped.has(tableRef(id));
  const emptied = (schema: string): boolean => {
    if (actual.schemasWithNotManaged?.includes(schema)) return false;
    const prefix = `${quoteIdent(schema)}.`;
    const parentGone = (parent: string | undefined): boolean => {
      const id = parent !== undefined ? refId(parent, 'relation') : undefined;
      return id !== undefined && tableGone(id);
    };
    return (
      Object.values(actual.tables).every((t) => t.qname.schema !== schema || tableGone(t.id)) &&
      Object.values(actual.sequences).every(
        (s) =>
          s.qname.schema !== schema ||
          dropped.has(sequenceRef(s.id)) ||
          (s.ownedBy !== undefined && tableGone(s.ownedBy.table)),
      ) &&
      Object.values(actual.routines).every((r) => r.qname.schema !== schema || dropped.has(routineRef(r.id))) &&
      Object.values(actual.objects).every(
        (o) => !o.name.startsWith(prefix) || dropped.has(o.id) || parentGone(o.parent),
      )
    );
  };
  const out: Step[] = [];
  const unmanaged: string[] = [];
  for (const schema of actual.schemas) {
    const line = schemaRef(schema);
    // public is in every new database: not the manifest's to list or drop.
    if (want.has(schema) || schema === 'public' || opts.ignored(line)) continue;
    if (opts.prune && emptied(schema)) out.push({ kind: 'drop_schema', schema });
    else unmanaged.push(line);
  }
  return { steps: out, unmanaged };
}
