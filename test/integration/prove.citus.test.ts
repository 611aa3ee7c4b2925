// plan --prove on a real coordinator + 2 workers: the scratch database is made on every node (the
// citus extension in each, the workers registered), the copy is distributed as the database is,
// and what Citus refuses there (PostgreSQL would not) is a plan problem at its file:line. Every
// node is left without the scratch database, and a lock held on a worker's shard of the real
// table does not stop the proof: it touches nothing of the database it proves.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import { startCli } from '../support/cli-process.js';

const citus = citusServers();
// Where Citus reaches a node is where the tool does (not a container's alias): the proof connects to the workers.
const reachable = citus !== null && citus.nodes.every((n) => n.registerAs === undefined);

const scratchOnNodes = async (): Promise<string[]> => {
  const out: string[] = [];
  for (let i = 0; i < citus!.nodes.length; i++)
    for (const r of await sql<{ datname: string }>(
      citus!,
      'postgres',
      "SELECT datname FROM pg_database WHERE datname LIKE 'citus\\_migrate\\_prove\\_%'",
      i,
    ))
      out.push(`node ${i}: ${r.datname}`);
  return out;
};

const manifest = (extra: string): string => `version: 1
colocation:
  tenant: { shard_count: 4 }
tables:
  companies:
    columns: { id: { type: bigint, not_null: true }, name: text }
    primary_key: [id]
    distributed_by: id
    colocation: tenant
  items:
    columns: { company_id: { type: bigint, not_null: true }, id: { type: bigint, not_null: true }, name: text${extra} }
    primary_key: [company_id, id]
    distributed_by: company_id
    colocation: tenant
  countries:
    reference: true
    columns: { code: { type: text, not_null: true } }
    primary_key: [code]
sql: [sql]
`;

async function distributed(prefix: string): Promise<{ db: TestDb; dir: (extra: string, sql: string) => string }> {
  const db = await freshDatabase(citus!, prefix);
  const dir = (extra: string, text: string): string =>
    projectDir({ 'citus-migrate.yaml': manifest(extra), 'sql/objects.sql': text });
  const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir('', '') });
  expect(r.code, r.stderr).toBe(0);
  await db.query('INSERT INTO companies SELECT g FROM generate_series(1, 20) g');
  await db.query('INSERT INTO items SELECT g % 20 + 1, g FROM generate_series(1, 200) g');
  return { db, dir };
}

describe.skipIf(!citus || !reachable)('plan --prove on Citus', () => {
  it('a unique index Citus refuses on a distributed table (not on its distribution column) is a plan problem at its file:line; no node keeps the scratch database', async () => {
    const { db, dir } = await distributed('prove_citus_refused');
    const project = dir('', '-- lookups\nCREATE UNIQUE INDEX items_name ON items (name);\n');
    const plain = await cli(['plan', '--database', db.url], { cwd: project });
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    const r = await cli(['plan', '--database', db.url, '--prove'], { cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'sql/objects.sql:2:1: index public.items_name: step 1 (create index public.items_name) was refused when --prove ran the plan on a copy of the database: 0A000 creating unique indexes on non-partition columns is currently unsupported',
    );
    expect(await scratchOnNodes()).toEqual([]);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'items_name'")).toEqual([
      { n: 0 },
    ]);
  });

  it('a change to colocated distributed tables is proved on a distributed copy while a session holds a worker shard of the real table locked', async () => {
    const { db, dir } = await distributed('prove_citus_ok');
    const [first] = await db.query<{ shard: string; port: number }>(
      "SELECT shard_name::text AS shard, nodeport AS port FROM citus_shards WHERE table_name = 'items'::regclass ORDER BY shardid LIMIT 1",
    );
    const node = citus!.nodes.find((n) => n.port === first!.port)!;
    const holder = new pg.Client({
      host: node.host,
      port: node.port,
      user: citus!.user,
      ...(citus!.password ? { password: citus!.password } : {}),
      database: db.name,
    });
    await holder.connect();
    try {
      await holder.query(
        `SET citus.enable_manual_changes_to_shards = on; BEGIN; LOCK TABLE ${first!.shard} IN ACCESS EXCLUSIVE MODE`,
      );
      const project = dir(
        ', note: { type: text, not_null: true, default: "\'x\'" }',
        'CREATE VIEW item_notes AS SELECT company_id, id, note FROM items;\nCREATE INDEX items_note ON items (note);\n',
      );
      const r = await cli(['plan', '--database', db.url, '--prove', '--format', 'json'], { cwd: project });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const p = JSON.parse(r.stdout) as { problems: unknown[]; proof: Record<string, unknown> };
      expect(p.problems).toEqual([]);
      expect(p.proof).toMatchObject({ ran: 3, copyDiffers: [], remaining: [], leftBehind: [] });
      // The shard's lock is still held: nothing of the real table was touched.
      expect(await holder.query('SELECT 1')).toBeTruthy();
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    expect(await scratchOnNodes()).toEqual([]);
  });

  it('Ctrl-C while a step of the proof runs on a worker drops the scratch database on every node (ending the worker session too) and exits 130', async () => {
    const { db, dir } = await distributed('prove_citus_sigint');
    // Building it runs its query: 60 s on each worker, in the workers' copy of the scratch database.
    const project = dir(
      '',
      "CREATE MATERIALIZED VIEW slow AS SELECT count(*) AS n FROM run_command_on_workers('SELECT pg_sleep(60)');\n",
    );
    const { child, done } = startCli(['plan', '--database', db.url, '--prove'], { cwd: project });
    const sleepingOnWorkers = async (): Promise<number> => {
      let n = 0;
      for (let w = 1; w < citus!.nodes.length; w++)
        n += (
          await sql<{ n: number }>(
            citus!,
            'postgres',
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname LIKE 'citus\\_migrate\\_prove\\_%' AND query LIKE '%pg_sleep%'",
            w,
          )
        )[0]!.n;
      return n;
    };
    let sleeping = false;
    for (let i = 0; i < 300 && !sleeping; i++) {
      sleeping = (await sleepingOnWorkers()) > 0;
      if (!sleeping) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sleeping).toBe(true);
    const t0 = performance.now();
    child.kill('SIGINT');
    const r = await done;
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('--prove interrupted: its scratch database was dropped; the database was not touched');
    expect(await sleepingOnWorkers()).toBe(0);
    expect(await scratchOnNodes()).toEqual([]);
  });
});
