// Citus neither propagates a range type (nor its multirange) nor distributes a table that uses
// one: create_distributed_table refuses it ("has dependency on unsupported object", pinned by
// range-types.citus.test.ts). A distributed table of the manifest with a column of a range type
// the manifest declares is a plan problem, with where the type is declared, rather than a plan
// that fails at apply. Pure.
import type { ClusterModel } from '../../model/types.js';
import { tableRef } from '../../model/object-ref.js';
import type { DiffProblem } from '../problem.js';

/** A type's name without `public.` and array brackets, as a column's type and the object's name compare. */
const bare = (name: string): string => name.replace(/(\[\])+$/, '').replace(/^public\./, '');

/** PostgreSQL's default name for a range's multirange (makeMultirangeTypeName). */
function multirangeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const [schema, type] = dot < 0 ? ['', name] : [name.slice(0, dot + 1), name.slice(dot + 1)];
  const at = type.indexOf('range');
  return schema + (at >= 0 ? `${type.slice(0, at)}multi${type.slice(at)}` : `${type}_multirange`);
}

export function rangeTypeProblems(desired: ClusterModel): DiffProblem[] {
  const ranges = new Map<string, { name: string; source?: string }>();
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'range type') continue;
    const entry = { name: o.name, ...(o.source !== undefined ? { source: o.source } : {}) };
    ranges.set(bare(o.name), entry);
    ranges.set(bare(multirangeOf(o.name)), entry);
  }
  if (ranges.size === 0) return [];
  const problems: DiffProblem[] = [];
  for (const t of Object.values(desired.tables)) {
    if (t.distribution.kind === 'local') continue;
    for (const c of t.columns ?? []) {
      const r = ranges.get(bare(c.type.base));
      if (!r) continue;
      problems.push({
        code: 'range_type_distributed',
        object: tableRef(t.qname),
        message: `column ${c.name} is of range type ${r.name}${r.source ? ` (${r.source})` : ''}, which Citus neither propagates to the workers nor lets a distributed, reference or citus-local table use ("has dependency on unsupported object"): keep the table local, or use the range's bounds as two columns`,
      });
    }
  }
  return problems;
}
