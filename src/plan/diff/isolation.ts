// Tenants isolated on shards of their own: a colocation group's declared `isolated` tenants whose
// hash the cluster's group has no one-value shard for are isolated after COMMIT
// (isolate_tenant_to_new_shard, CASCADE). A group the plan creates, or whose shard count it
// changes, has none yet. One the cluster has and the manifest does not declare is named as not
// managed (Citus cannot merge it back): from-manifest.ts leaves the declared ones out of that list.
import type { ClusterModel } from '../../model/types.js';
import type { Step } from '../steps/steps.js';
import type { DiffContext, PartResult } from './context.js';

/** The isolate_tenant steps of the desired groups. */
export function isolationSteps(desired: ClusterModel, actual: ClusterModel): Step[] {
  const steps: Step[] = [];
  for (const g of Object.values(desired.groups)) {
    const anchor = desired.tables[g.anchor];
    if (!g.isolated?.length || anchor?.distribution.kind !== 'hash') continue;
    const column = anchor.distribution.column;
    const a = actual.tables[g.anchor];
    const ag =
      a?.distribution.kind === 'hash' && a.distribution.column === column
        ? actual.groups[a.distribution.group]
        : undefined;
    const have = new Set(ag?.shardCount === g.shardCount ? (ag.isolated ?? []).map((x) => x.hash) : []);
    const type = anchor.columns?.find((c) => c.name === column)?.type.base ?? 'bigint';
    for (const t of g.isolated)
      if (t.value !== undefined && !have.has(t.hash))
        steps.push({ kind: 'isolate_tenant', table: anchor.qname, value: t.value, type, hash: t.hash });
  }
  return steps;
}

export const isolationPart = (ctx: DiffContext): PartResult =>
  ctx.citus ? { steps: isolationSteps(ctx.desired, ctx.actual) } : {};

/** The not-managed entries the manifest's isolated tenants account for (`<table> (hash h)`), to leave out. */
export function declaredIsolations(desired: ClusterModel): ReadonlySet<string> {
  const out = new Set<string>();
  for (const g of Object.values(desired.groups))
    for (const t of g.isolated ?? []) for (const m of g.members) out.add(`${m} (hash ${t.hash})`);
  return out;
}
