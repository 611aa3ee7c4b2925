// What `apply --rehearse` says it left behind. The ROLLBACK undoes the transaction on the
// coordinator, but not everything a rehearsal touched is transactional.
import type { PlanStep } from '../plan/plan.js';
import { plural } from '../util/plural.js';

// Steps that make Citus create a table's dependencies on the workers (its sequences among them).
// Citus keeps such sequences where a transaction would not (citusdata/citus#6695: undistribute_table
// leaves a bigserial's sequence on the workers), so a rehearsal does not promise they are gone.
const PUTS_OBJECTS_ON_WORKERS: ReadonlySet<PlanStep['kind']> = new Set([
  'distribute_table',
  'create_reference_table',
  'create_single_shard_table',
  'alter_distributed_table',
  'add_local_table_to_metadata',
  'distribute_schema',
]);

/** The line apply --rehearse prints: what ran, what was rolled back, and what may not have been. */
export function rehearseText(
  steps: readonly Pick<PlanStep, 'kind'>[],
  afterCommit: readonly Pick<PlanStep, 'kind'>[],
): string {
  const onWorkers = steps.some((s) => PUTS_OBJECTS_ON_WORKERS.has(s.kind));
  return [
    `Rehearsed ${plural(steps.length, 'step')} on the cluster and rolled back: the transaction runs, and its changes are gone on the coordinator (the history schema too).`,
    ' Not rolled back: values drawn from sequences (nextval is never undone)',
    onWorkers
      ? ', and what Citus created on the workers for the tables it distributed, which it may keep after the rollback — the sequences behind serial, bigserial and identity columns (check with \\ds on a worker).'
      : '.',
    afterCommit.length ? ` (${plural(afterCommit.length, 'after-commit step')} cannot be rehearsed.)` : '',
    '\n',
  ].join('');
}
