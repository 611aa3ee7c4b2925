// The cluster-state guard: a plan that creates, moves or rewrites shards does not start while a
// node is inactive, a worker's metadata is not synced, a Citus background job (a rebalance, a
// move) has not ended, or another session moves shards in the foreground. Reasons come from the one catalog read; while waiting, a small
// coordinator-only query polls (citus_rebalance_status() would call the workers).
import type pg from 'pg';
import { CmError, EXIT } from '../errors.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { MOVES_SQL } from '../introspect/catalog-fragments.js';
import type { PlanDocument } from '../plan/plan.js';
import { touchesShards } from '../plan/steps/step-spec.js';

type GuardState = Pick<CatalogDoc, 'nodes' | 'jobs'> & Partial<Pick<CatalogDoc, 'moves'>>;

/** Whether the plan moves or rewrites tables (what the guard is for). */
export const movesTables = (plan: PlanDocument): boolean =>
  [...plan.transaction.steps, ...plan.afterCommit].some(
    (s) => touchesShards(s.kind) || s.hazards.includes('copies_data') || s.hazards.includes('rewrites_table'),
  );

/** Why the cluster is not ready for such a plan; empty when it is. Pure. */
export function notReady(state: GuardState): string[] {
  const reasons: string[] = [];
  for (const n of state.nodes) {
    if (n.role !== 'primary') continue;
    if (!n.active) reasons.push(`node ${n.host}:${n.port} is inactive (citus_activate_node brings it back)`);
    else if (n.group !== 0 && n.hasMetadata && !n.metadataSynced)
      reasons.push(`node ${n.host}:${n.port}: its metadata is not synced yet (Citus's maintenance daemon syncs it)`);
  }
  for (const j of state.jobs)
    reasons.push(`background job ${j.id} (${j.type}, ${j.state}): ${j.description} — see citus_job_list()`);
  for (const m of state.moves ?? [])
    reasons.push(
      `session ${m.pid} is moving, copying or splitting shards${m.query ? `: ${m.query.replace(/\s+/g, ' ').trim()}` : ''}`,
    );
  return reasons;
}

const POLL_SQL = `SELECT pg_catalog.json_build_object(
  'nodes', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object('id', d.nodeid, 'group', d.groupid,
      'host', d.nodename, 'port', d.nodeport, 'role', d.noderole, 'active', d.isactive, 'hasMetadata', d.hasmetadata,
      'metadataSynced', d.metadatasynced, 'shouldHaveShards', d.shouldhaveshards)), '[]') FROM pg_catalog.pg_dist_node d),
  'jobs', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object('id', j.job_id, 'state', j.state,
      'type', j.job_type, 'description', j.description) ORDER BY j.job_id), '[]')
    FROM pg_catalog.pg_dist_background_job j WHERE j.state::pg_catalog.text IN ('scheduled', 'running', 'cancelling', 'failing')),
  'moves', ${MOVES_SQL}) AS s`;

/**
 * Refuses (exit 7) a plan that moves or rewrites tables while the cluster is not ready, after
 * waiting up to `waitMs` for it to become ready. Nothing has run when it refuses.
 */
export async function awaitClusterReady(
  client: pg.Client,
  plan: PlanDocument,
  state: GuardState,
  waitMs: number,
  onWait: (reasons: readonly string[]) => void,
): Promise<void> {
  if (!movesTables(plan)) return;
  let reasons = notReady(state);
  if (reasons.length === 0) return;
  const until = Date.now() + waitMs;
  if (waitMs > 0) onWait(reasons);
  while (reasons.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, Math.min(2000, Math.max(0, until - Date.now()))));
    reasons = notReady((await client.query(POLL_SQL)).rows[0].s as GuardState);
  }
  if (reasons.length === 0) return;
  throw new CmError(
    `the cluster is not ready for a plan that moves or rewrites tables; nothing was run${waitMs > 0 ? ` (waited ${Math.round(waitMs / 1000)}s)` : ''}\n${reasons.map((r) => `  ${r}`).join('\n')}`,
    'cluster_not_ready',
    EXIT.clusterNotReady,
    { reasons },
  );
}

/**
 * Transactions that would hold up an online distribution: create_distributed_table_concurrently
 * makes a logical replication slot, which waits for every transaction running on the
 * coordinator's server (any database) to end. Lines to print, empty when there is none.
 */
export async function transactionsInTheWay(client: pg.Client, plan: PlanDocument): Promise<string[]> {
  if (!plan.afterCommit.some((s) => s.kind === 'distribute_table_concurrently')) return [];
  const { rows } = await client.query<{
    pid: number;
    db: string | null;
    usr: string | null;
    secs: number;
    state: string;
  }>(
    `SELECT pid, datname AS db, usename AS usr, extract(epoch FROM now() - xact_start)::int AS secs, state
     FROM pg_catalog.pg_stat_activity
     WHERE pid <> pg_catalog.pg_backend_pid() AND xact_start < now() - interval '5 seconds'
       AND (backend_xid IS NOT NULL OR backend_xmin IS NOT NULL) AND backend_type = 'client backend'
     ORDER BY xact_start`,
  );
  return rows.map(
    (r) => `pid ${r.pid} (${r.usr ?? '?'} on ${r.db ?? '?'}): in a transaction for ${r.secs}s, ${r.state}`,
  );
}
