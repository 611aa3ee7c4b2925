// Faults during apply on a real Citus cluster: a worker down before apply, a worker dying in the
// middle of the transaction, the coordinator connection killed mid-transaction, a statement
// timeout. Each ends with a clear error, the cluster exactly as before (no new shard, group or
// distributed object, on the coordinator or the workers), and the next apply converging.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgInstall, startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import { createClusterDatabase } from '../../src/cluster/database.js';
import { STACK_FRAME } from '../support/bad-input.js';
import { citusServers } from '../support/db.js';
import { startCli } from '../support/cli-process.js';
import { cli } from '../support/run-cli.js';

const canRun = citusServers() !== null && (findPgInstall()?.hasCitus ?? false);

async function q(url: string, sql: string): Promise<pg.QueryResultRow[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

const nodeUrl = (port: number, db: string): string => `postgresql://postgres@127.0.0.1:${port}/${db}`;

async function state(cluster: LocalCluster, db: string): Promise<unknown> {
  const coord = await q(
    nodeUrl(cluster.coordinator.port, db),
    `SELECT (SELECT count(*)::int FROM pg_dist_partition) AS tables,
    (SELECT count(*)::int FROM pg_dist_shard) AS shards, (SELECT count(*)::int FROM pg_dist_colocation) AS groups,
    (SELECT count(*)::int FROM pg_dist_object) AS objects, (SELECT count(*)::int FROM pg_class WHERE relkind = 'r' AND relnamespace::regnamespace::text NOT IN ('pg_catalog', 'information_schema', 'citus_migrate')) AS rels`,
  );
  const workers = [];
  for (const w of cluster.workers)
    workers.push(
      await q(
        nodeUrl(w.port, db),
        "SELECT count(*)::int AS rels FROM pg_class WHERE relkind = 'r' AND relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)",
      ),
    );
  return { coord, workers };
}

async function waitFor(check: () => Promise<boolean>, tries = 150): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const SAAS = `${process.cwd()}/templates/saas/citus-migrate.yaml`;

/**
 * A database whose reference table app.plans another session holds locked, and an apply of the
 * saas template started against it: the apply distributes three tables inside its transaction
 * and then waits there (its foreign key to plans needs the lock). Resolves once it waits.
 */
async function applyWaitingInsideItsTransaction(cluster: LocalCluster, db: string, extra: readonly string[] = []) {
  const url = await createClusterDatabase(cluster, db);
  await q(
    url,
    "CREATE SCHEMA app; CREATE TABLE app.plans (id text NOT NULL PRIMARY KEY, monthly_price numeric(10,2) NOT NULL); SELECT create_reference_table('app.plans')",
  );
  const before = await state(cluster, db);
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query('BEGIN; LOCK TABLE app.plans IN ACCESS EXCLUSIVE MODE');
  const { done } = startCli([
    'apply',
    '-f',
    SAAS,
    '--database',
    url,
    '--auto-approve',
    '--lock-timeout',
    '60s',
    ...extra,
  ]);
  expect(
    await waitFor(
      async () =>
        (
          await q(
            url,
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'citus-migrate' AND wait_event_type = 'Lock'",
          )
        )[0]!.n > 0,
    ),
  ).toBe(true);
  const release = async (): Promise<void> => {
    await holder.query('COMMIT');
    await holder.end();
  };
  return { url, before, done, release };
}

describe.skipIf(!canRun)('faults during apply (own cluster)', () => {
  let cluster: LocalCluster;
  beforeAll(async () => {
    cluster = await startLocalCluster({ citus: true, workers: 2 });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('a worker down before apply: clear error, nothing changed; back up, the next apply converges', async () => {
    const url = await createClusterDatabase(cluster, 'down_before');
    const before = await state(cluster, 'down_before');
    cluster.stopNode(cluster.workers[1]!);
    try {
      const r = await cli(['apply', '-f', SAAS, '--database', url, '--auto-approve']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error: apply failed at step \d+: .*\n\s+ERROR( \w+)?: .*(connect|connection)/i);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.stderr).toContain('nothing was applied: the transaction was rolled back');
    } finally {
      cluster.startNode(cluster.workers[1]!);
    }
    expect(await state(cluster, 'down_before')).toEqual(before);
    const next = await cli(['apply', '-f', SAAS, '--database', url, '--auto-approve']);
    expect(next.code).toBe(0);
  });

  it('a worker down when a distributed sequence cache is set after COMMIT: apply fails naming it, plans keep the step until every node has it', async () => {
    const url = await createClusterDatabase(cluster, 'seq_down');
    const dir = mkdtempSync(join(tmpdir(), 'cm-seq-down-'));
    const manifest = (cache: number): string => `version: 1
tables:
  events:
    distributed_by: id
    shard_count: 4
    columns: { id: { type: bigserial, not_null: true }, v: int }
    primary_key: [id]
sequences:
  events_id_seq: { cache: ${cache} }
`;
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(10));
    expect((await cli(['apply', '--database', url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(50));
    const worker = cluster.workers[1]!;
    cluster.stopNode(worker);
    try {
      const r = await cli(['apply', '--database', url, '--auto-approve', '--allow-hazards', 'non_transactional'], {
        cwd: dir,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the command failed on a worker: 127.0.0.1:${worker.port}`);
      expect(r.stdout).not.toContain('verified');
      // The coordinator has the new cache; the plan still sets it on every node.
      const plan = await cli(['plan', '--database', url, '--detailed-exitcode'], { cwd: dir });
      expect(plan.code).toBe(2);
      expect(plan.stdout).toContain('set cache 50 on distributed sequence public.events_id_seq on every node');
    } finally {
      cluster.startNode(worker);
    }
    const next = await cli(['apply', '--database', url, '--auto-approve', '--allow-hazards', 'non_transactional'], {
      cwd: dir,
    });
    expect(next.code).toBe(0);
    // One step, and it ran after COMMIT (was: "Applied 1 step … (+1 after COMMIT)").
    expect(next.stdout).toMatch(/^Applied 1 step in [\d.]+s \(after COMMIT\); verified: planning again is empty\./);
    expect(
      await q(
        nodeUrl(worker.port, 'seq_down'),
        "SELECT cache_size::int AS c FROM pg_sequences WHERE sequencename = 'events_id_seq'",
      ),
    ).toEqual([{ c: 50 }]);
    expect((await cli(['plan', '--database', url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a worker dies in the middle of the transaction: rolled back everywhere; the next apply converges', async () => {
    const { url, before, done, release } = await applyWaitingInsideItsTransaction(cluster, 'down_during', [
      '--retries',
      '0',
    ]);
    cluster.stopNode(cluster.workers[0]!);
    await release();
    const r = await done;
    cluster.startNode(cluster.workers[0]!);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: apply failed at step \d+/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    // Citus's maintenance daemon resolves any prepared transaction left on the workers.
    expect(
      await waitFor(async () => JSON.stringify(await state(cluster, 'down_during')) === JSON.stringify(before)),
    ).toBe(true);
    const next = await cli(['apply', '-f', SAAS, '--database', url, '--auto-approve']);
    expect(next.stderr).not.toMatch(/error/);
    expect(next.code).toBe(0);
  });

  it('the coordinator connection killed mid-transaction: clear error, nothing changed, next apply converges', async () => {
    const { url, before, done, release } = await applyWaitingInsideItsTransaction(cluster, 'killed_conn');
    await q(
      url,
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'citus-migrate'",
    );
    const r = await done;
    await release();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/terminating connection|Connection terminated/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(
      await waitFor(async () => JSON.stringify(await state(cluster, 'killed_conn')) === JSON.stringify(before)),
    ).toBe(true);
    const next = await cli(['apply', '-f', SAAS, '--database', url, '--auto-approve']);
    expect(next.code).toBe(0);
    expect(next.stderr).toContain('had died mid-way');
  });

  it('a statement timeout: the copy is cancelled, nothing changed; without it the apply converges', async () => {
    const url = await createClusterDatabase(cluster, 'stmt_timeout');
    await q(
      url,
      "CREATE TABLE big (id bigint PRIMARY KEY, v text); INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 300000) g",
    );
    const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/cm-st-`);
    (await import('node:fs')).writeFileSync(
      `${dir}/citus-migrate.yaml`,
      'version: 1\ntables:\n  big: { distributed_by: id, shard_count: 8 }\n',
    );
    const before = await state(cluster, 'stmt_timeout');
    const r = await cli(
      ['apply', '--database', url, '--auto-approve', '--allow-hazards', 'copies_data', '--statement-timeout', '50ms'],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('canceling statement due to statement timeout');
    expect(r.stderr).toContain('nothing was applied: the transaction was rolled back');
    expect(await state(cluster, 'stmt_timeout')).toEqual(before);
    expect((await q(url, 'SELECT count(*)::int AS n FROM big'))[0]!.n).toBe(300000);
    const next = await cli(['apply', '--database', url, '--auto-approve', '--allow-hazards', 'copies_data'], {
      cwd: dir,
    });
    expect(next.code).toBe(0);
    expect((await q(url, 'SELECT count(*)::int AS n FROM big'))[0]!.n).toBe(300000);
  });
});
