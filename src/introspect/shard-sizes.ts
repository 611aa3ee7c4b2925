// Distributed tables' sizes, summed over their shards as the workers report them
// (citus_shard_sizes: one call to each worker): for the plan's time estimates of the steps that
// work through a distributed table's rows (plan/lock-estimate.ts). Not part of the catalog query,
// which reads the coordinator alone: read only when the plan has such a step.
import type { Queryable } from '../db/connect.js';
import { wantsShardSizes, type TableSizes } from '../plan/lock-estimate.js';
import type { LiveState } from '../model/live-state.js';
import type { PlanDocument } from '../plan/plan.js';

const SIZES = `SELECT t.id, pg_catalog.count(*)::pg_catalog.int4 AS shards, pg_catalog.sum(z.size)::pg_catalog.int8 AS bytes
  FROM pg_catalog.unnest($1::pg_catalog.text[]) AS t(id)
  JOIN pg_catalog.pg_dist_shard s ON s.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(t.id)
  JOIN pg_catalog.citus_shard_sizes() z ON z.shard_id OPERATOR(pg_catalog.=) s.shardid
  GROUP BY t.id`;

/** The sizes of the tables `ids` (quoted qualified names) over their shards; a read that fails gives none. */
export async function readTableSizes(db: Queryable, ids: readonly string[]): Promise<TableSizes> {
  if (ids.length === 0) return {};
  try {
    const r = await db.query<{ id: string; shards: number; bytes: string }>(SIZES, [ids]);
    return Object.fromEntries(r.rows.map((x) => [x.id, { shards: x.shards, bytes: Number(x.bytes) }]));
  } catch {
    return {};
  }
}

/**
 * The plan again with its distributed tables' sizes when it has a step that works through one's
 * rows (its time estimate needs them); else the plan as it is, and nothing read.
 */
export async function withShardSizes(
  db: Queryable,
  live: LiveState,
  plan: (sizes: TableSizes) => PlanDocument,
): Promise<PlanDocument> {
  const first = plan({});
  const ids = live.citus ? wantsShardSizes([...first.transaction.steps, ...first.afterCommit], live.model) : [];
  return ids.length === 0 ? first : plan(await readTableSizes(db, ids));
}
