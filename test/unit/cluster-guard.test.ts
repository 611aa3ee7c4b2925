// The cluster-state guard's decision, pure: which plans it applies to, and why a cluster is not ready.
import { describe, expect, it } from 'vitest';
import { movesTables, notReady } from '../../src/apply/cluster-guard.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';

const node = (port: number, more: Record<string, unknown> = {}) => ({
  id: port,
  group: port === 5432 ? 0 : port,
  host: 'h',
  port,
  role: 'primary',
  active: true,
  hasMetadata: true,
  metadataSynced: true,
  shouldHaveShards: port !== 5432,
  ...more,
});

const plan = (steps: Partial<PlanStep>[]): PlanDocument =>
  ({
    transaction: { steps: steps.map((s) => ({ hazards: [], ...s })) },
    afterCommit: [],
  }) as unknown as PlanDocument;

describe('cluster guard', () => {
  it('applies to plans that create, move or rewrite shards, not to DDL or delegation alone', () => {
    expect(movesTables(plan([{ kind: 'distribute_table' }]))).toBe(true);
    expect(movesTables(plan([{ kind: 'distribute_schema' }]))).toBe(true);
    expect(movesTables(plan([{ kind: 'set_access_method', hazards: ['rewrites_table'] }]))).toBe(true);
    expect(movesTables(plan([{ kind: 'add_column' }, { kind: 'distribute_routine' }]))).toBe(false);
  });

  it('names inactive nodes, workers whose metadata is not synced, and background jobs that have not ended', () => {
    expect(notReady({ nodes: [node(5432), node(5433)], jobs: [] })).toEqual([]);
    expect(
      notReady({
        nodes: [node(5432), node(5433, { active: false }), node(5434, { metadataSynced: false })],
        jobs: [{ id: 3, state: 'running', type: 'rebalance', description: 'Rebalance all colocation groups' }],
      }),
    ).toEqual([
      'node h:5433 is inactive (citus_activate_node brings it back)',
      "node h:5434: its metadata is not synced yet (Citus's maintenance daemon syncs it)",
      'background job 3 (rebalance, running): Rebalance all colocation groups — see citus_job_list()',
    ]);
    // A secondary's state is not the guard's concern.
    expect(notReady({ nodes: [node(5435, { role: 'secondary', active: false })], jobs: [] })).toEqual([]);
  });

  it('names sessions that move shards in the foreground, with their statement on one line', () => {
    expect(
      notReady({
        nodes: [node(5432)],
        jobs: [],
        moves: [
          { pid: 41, query: "SELECT citus_move_shard_placement(102008,\n  'w1', 5433, 'w2', 5434)" },
          { pid: 42, query: null },
        ],
      }),
    ).toEqual([
      "session 41 is moving, copying or splitting shards: SELECT citus_move_shard_placement(102008, 'w1', 5433, 'w2', 5434)",
      'session 42 is moving, copying or splitting shards',
    ]);
  });
});
