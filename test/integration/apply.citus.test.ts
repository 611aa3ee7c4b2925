// apply on a real Citus coordinator + 2 workers: HammerDB-style tables holding rows keep every
// row; a SIGKILL mid-transaction leaves no shard, colocation group or distributed object.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { hammerdbManifest } from '../../src/hammerdb/layout.js';
import { citusServers, cliSessions, freshDatabase, pollCount, type TestDb } from '../support/db.js';
import { startCli } from '../support/cli-process.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();
const TABLES = ['customer', 'district', 'history', 'item', 'new_order', 'order_line', 'orders', 'stock', 'warehouse'];

async function rows(db: TestDb): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of TABLES) {
    const [r] = await db.query<{ v: string }>(
      `SELECT count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS v FROM ${t} x`,
    );
    out[t] = r!.v;
  }
  return out;
}

async function citusState(db: TestDb): Promise<unknown> {
  const coord =
    await db.query(`SELECT (SELECT count(*)::int FROM pg_dist_partition) AS tables, (SELECT count(*)::int FROM pg_dist_shard) AS shards,
      (SELECT count(*)::int FROM pg_dist_colocation) AS groups, (SELECT count(*)::int FROM pg_dist_object) AS objects`);
  const workers = [];
  for (const n of [1, 2])
    workers.push(
      await db
        .query(
          "SELECT count(*)::int AS rels FROM pg_class WHERE relnamespace IN ('public'::regnamespace, 'app'::regnamespace) AND relkind = 'r'",
          n,
        )
        .catch(() =>
          db.query(
            "SELECT count(*)::int AS rels FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'",
            n,
          ),
        ),
    );
  return { coord, workers };
}

describe.skipIf(!citus)('apply on Citus', () => {
  it('HammerDB template on tables holding rows: refused without copies_data, then every row kept and the plan empty', async () => {
    const db = await freshDatabase(citus!, 'happ');
    expect(db.psql({ file: 'test/fixtures/hammerdb/tables.sql' }).status).toBe(0);
    expect(db.psql({ file: 'test/fixtures/hammerdb/routines-procedures.sql' }).status).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'cm-happ-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), hammerdbManifest({ variant: 'procedures', shardCount: 8 }));
    const before = await rows(db);

    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      'copies_data: step 1 (make public.item a reference table (copies its rows to every node))',
    );
    expect(await db.query('SELECT count(*)::int AS n FROM pg_dist_partition')).toEqual([{ n: 0 }]);

    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data'], {
      cwd: dir,
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Applied 23 steps in [\d.]+s; verified: planning again is empty\. Recorded as apply #1\.\n$/,
    );
    expect(await rows(db)).toEqual(before);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('SIGKILL while the transaction waits, after shards were made: no shard, group or distributed object is left', async () => {
    const db = await freshDatabase(citus!, 'kill');
    // plans is already a reference table; the saas manifest's foreign key to it needs its lock,
    // which another session holds, so the apply waits there after distributing three tables.
    await db.query(
      "CREATE SCHEMA app; CREATE TABLE app.plans (id text NOT NULL PRIMARY KEY, monthly_price numeric(10,2) NOT NULL); SELECT create_reference_table('app.plans')",
    );
    const before = await citusState(db);
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE app.plans IN ACCESS EXCLUSIVE MODE');
    const { child, done } = startCli([
      'apply',
      '-f',
      `${process.cwd()}/templates/saas/citus-migrate.yaml`,
      '--database',
      db.url,
      '--auto-approve',
      '--lock-timeout',
      '60s',
    ]);
    expect(await pollCount(db, cliSessions(true), (n) => n > 0, 150)).toBe(true);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    await holder.query('COMMIT');
    await holder.end();
    expect(await pollCount(db, cliSessions(), (n) => n === 0)).toBe(true);
    expect(await citusState(db)).toEqual(before);
    const next = await cli([
      'apply',
      '-f',
      'templates/saas/citus-migrate.yaml',
      '--database',
      db.url,
      '--auto-approve',
    ]);
    expect(next.code).toBe(0);
    expect(next.stderr).toContain('1 earlier apply had died mid-way');
  });
});
