// Subscriptions on Citus. A subscription on the coordinator writes into the coordinator's own
// tables, row by row beneath Citus: into a distributed, reference or citus-local table its rows go
// into the coordinator's table (Citus's "shell", which its queries never read) and never reach a
// shard (Citus 13.2; pinned by subscriptions.citus.test.ts). So a subscription that receives a
// table the plan leaves or makes a Citus table is a plan problem (a warning when the manifest does
// not declare it); and since which tables a new one
// receives is known only once it has asked its publisher, making one on Citus is a warning. Pure.
import type { Problem } from '../../errors.js';
import { sourceLocation } from '../../util/source-location.js';
import type { ClusterModel, Distribution } from '../../model/types.js';
import { subscriptionRef } from '../../model/object-ref.js';
import type { DiffProblem } from '../problem.js';
import { RECEIVES } from '../../objects/subscription.js';

const citusKind = (d: Distribution | undefined): string | undefined =>
  d === undefined || d.kind === 'local'
    ? undefined
    : d.kind === 'citus_local'
      ? 'citus-local'
      : d.kind.replace('_', '-');

/**
 * Per subscription that receives a table the plan leaves (or makes) a Citus table: a problem when
 * the manifest declares the subscription, a warning when it does not (nor is it the plan's to keep).
 */
export function subscriptionTableChecks(
  desired: ClusterModel,
  actual: ClusterModel,
): { problems: DiffProblem[]; warnings: Problem[] } {
  const problems: DiffProblem[] = [];
  const warnings: Problem[] = [];
  for (const a of Object.values(actual.objects)) {
    if (a.kind !== 'subscription') continue;
    const tables = a.deps
      .filter((d) => d.startsWith(RECEIVES))
      .map((d) => d.slice(RECEIVES.length))
      .flatMap((id) => {
        const kind = citusKind((desired.tables[id] ?? actual.tables[id])?.distribution);
        return kind === undefined ? [] : [`${id} (${kind})`];
      });
    if (tables.length === 0) continue;
    const message = `receives ${tables.join(', ')}: on Citus a subscription writes into the coordinator's own table, beneath Citus, so its rows never reach a shard and Citus's queries do not see them; subscribe into a local table (local: true) and move the rows with INSERT … SELECT, or distribute the table once the subscription is dropped`;
    const declared = desired.objects[a.id];
    if (declared)
      problems.push({
        code: 'citus_subscription_table',
        object: a.id,
        message,
        ...(declared.source !== undefined ? { where: declared.source } : {}),
      });
    else
      warnings.push({
        severity: 'warning',
        code: 'citus_subscription_table',
        path: '',
        message: `${a.id} (not in the manifest) ${message}`,
      });
  }
  return { problems, warnings };
}

/** A warning per subscription the plan makes on a Citus cluster: which tables it receives is its publisher's to say. */
export function newSubscriptionWarnings(desired: ClusterModel, actual: ClusterModel): Problem[] {
  return Object.values(desired.objects)
    .filter((d) => d.kind === 'subscription' && actual.objects[d.id] === undefined)
    .map((d) => ({
      severity: 'warning' as const,
      code: 'citus_subscription',
      path: '',
      message: `${subscriptionRef(d.name)} is made on a Citus coordinator: the tables it receives (its publisher's to say) must be local ones, since rows it writes into a distributed, reference or citus-local table never reach a shard; the next plan names any it receives as a problem (citus_subscription_table)`,
      ...sourceLocation(d.source),
    }));
}
