// The lock footprint of a plan's transaction (issue #24): a transaction that distributes or alters
// many tables locks every shard (and each shard's indexes) it touches on every node until COMMIT.
// PostgreSQL's lock table holds max_locks_per_transaction × (max_connections +
// max_prepared_transactions) locks per node, shared by every session; past it the transaction
// fails with "out of shared memory" after minutes of work. The plan estimates the locks per node
// and warns before anything runs. Pure.
import type { Problem } from '../../errors.js';
import { DEFAULT_SHARD_COUNT, type ClusterModel, type Table } from '../../model/types.js';
import type { Step } from '../steps/steps.js';
import { tableOf } from '../steps/step-spec.js';

/** A node's lock table settings (the coordinator's, read by the catalog query) and the workers. */
export interface LockSettings {
  readonly maxLocksPerTransaction: number;
  readonly maxConnections: number;
  readonly maxPreparedTransactions: number;
  readonly workers: number;
}

/** Shards of `t` on the busiest node. */
function shardsPerNode(t: Table, groups: ClusterModel['groups'], workers: number): number {
  switch (t.distribution.kind) {
    case 'hash': {
      const count = groups[t.distribution.group]?.shardCount ?? DEFAULT_SHARD_COUNT;
      return Math.ceil(count / Math.max(1, workers));
    }
    case 'local':
      return 0;
    default:
      return 1; // reference (a copy on every node), single-shard, schema, citus-local
  }
}

/** Relations one shard of `t` locks: the shard, its indexes and keys, and as much again per partition. */
const relationsPerShard = (t: Table): number =>
  (1 + t.indexes.length + t.unique.length + (t.primaryKey ? 1 : 0)) * (1 + (t.partitions?.length ?? 0));

/** Locks the transaction's steps take on the busiest node, estimated from the tables they touch. */
export function estimateLocks(
  steps: readonly Step[],
  desired: ClusterModel,
  actual: ClusterModel,
  workers: number,
): { locks: number; tables: number } {
  const touched = new Set(steps.map(tableOf).filter((t): t is string => t !== undefined));
  let locks = 0;
  for (const id of touched) {
    // The larger of before and after: an undistributed table's shards are locked as it comes back.
    const per = [desired, actual].map((m) => {
      const t = m.tables[id];
      return t ? shardsPerNode(t, m.groups, workers) * relationsPerShard(t) : 0;
    });
    locks += Math.max(...per);
  }
  return { locks, tables: touched.size };
}

/** A warning when the estimate passes half the node's lock table (other sessions share it), else undefined. */
export function lockFootprintWarning(
  steps: readonly Step[],
  desired: ClusterModel,
  actual: ClusterModel,
  s: LockSettings,
): Problem | undefined {
  const { locks, tables } = estimateLocks(steps, desired, actual, s.workers);
  const slots = s.maxConnections + s.maxPreparedTransactions;
  const capacity = s.maxLocksPerTransaction * slots;
  if (locks * 2 <= capacity) return undefined;
  const needed = Math.ceil((locks * 2) / slots);
  return {
    severity: 'warning',
    code: 'lock_footprint',
    path: 'plan',
    message: `the transaction locks about ${locks} relations on one node (${tables} tables × their shards on that node × each shard's indexes and partitions); a node's lock table holds max_locks_per_transaction (${s.maxLocksPerTransaction}) × (max_connections (${s.maxConnections}) + max_prepared_transactions (${s.maxPreparedTransactions})) = ${capacity}, shared by every session, and past it the transaction fails with "out of shared memory" after doing its work. Apply in batches (fewer tables per change, one apply each), or set max_locks_per_transaction to at least ${needed} on every node (a restart)`,
  };
}
