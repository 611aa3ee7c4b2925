// The lock footprint warning (issue #24): a plan whose transaction may overflow a node's lock
// table says so before anything runs, with what to change.
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/manifest/load.js';
import { offlineBaseline } from '../../src/plan/diff/diff.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { estimateLocks, lockFootprintWarning } from '../../src/plan/checks/lock-footprint.js';

const SETTINGS = { maxLocksPerTransaction: 64, maxConnections: 100, maxPreparedTransactions: 0, workers: 2 };

describe('lock footprint', () => {
  it('estimates the locks of the hammerdb template (9 tables) per node, and warns only past half the lock table', async () => {
    const m = await loadManifest('templates/hammerdb/citus-migrate.yaml');
    const plan = planOffline(m, m.file, { now: new Date('2026-01-01T00:00:00Z') });
    const steps = plan.transaction.steps.map((s) => s.step);
    const actual = offlineBaseline(m.desired);
    const { locks, tables } = estimateLocks(steps, m.desired, actual, 2);
    expect(tables).toBe(9);
    expect(locks).toBeGreaterThan(100);
    expect(lockFootprintWarning(steps, m.desired, actual, SETTINGS)).toBeUndefined();
    const small = { ...SETTINGS, maxLocksPerTransaction: 1, maxConnections: 10 };
    const w = lockFootprintWarning(steps, m.desired, actual, small);
    expect(w?.code).toBe('lock_footprint');
    expect(w?.message).toBe(
      `the transaction locks about ${locks} relations on one node (9 tables × their shards on that node × each shard's indexes and partitions); a node's lock table holds max_locks_per_transaction (1) × (max_connections (10) + max_prepared_transactions (0)) = 10, shared by every session, and past it the transaction fails with "out of shared memory" after doing its work. Apply in batches (fewer tables per change, one apply each), or set max_locks_per_transaction to at least ${Math.ceil((locks * 2) / 10)} on every node (a restart)`,
    );
  });

  it('more workers, fewer shards per node', async () => {
    const m = await loadManifest('templates/hammerdb/citus-migrate.yaml');
    const steps = planOffline(m, m.file, { now: new Date('2026-01-01T00:00:00Z') }).transaction.steps.map(
      (s) => s.step,
    );
    const actual = offlineBaseline(m.desired);
    expect(estimateLocks(steps, m.desired, actual, 8).locks).toBeLessThan(
      estimateLocks(steps, m.desired, actual, 2).locks,
    );
  });
});
