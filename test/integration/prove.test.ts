// plan --prove on plain PostgreSQL: the plan runs in full on a copy of the database without rows,
// in a scratch database the tool creates on the same server and drops after. What PostgreSQL
// refuses there is a plan problem with file:line, and the database is left as it was.
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import { startCli } from '../support/cli-process.js';

const server = plainServers();

const scratchDatabases = async (): Promise<string[]> =>
  (
    await sql<{ datname: string }>(
      server,
      'postgres',
      "SELECT datname FROM pg_database WHERE datname LIKE 'citus\\_migrate\\_prove\\_%'",
    )
  ).map((r) => r.datname);

const manifest = (extra: string): string => `version: 1
tables:
  items:
    columns:
      id: { type: bigint, not_null: true }
      name: { type: text }${extra}
    primary_key: [id]
sql: [sql]
`;

describe('plan --prove', () => {
  it('a view PostgreSQL refuses is a plan problem at its file:line; the database is untouched and the scratch database gone', async () => {
    const db = await freshDatabase(server, 'prove_refused');
    await db.query('CREATE TABLE items (id bigint NOT NULL PRIMARY KEY, name text)');
    await db.query("INSERT INTO items VALUES (1, 'a')");
    const dir = projectDir({
      'citus-migrate.yaml': manifest(''),
      'sql/views.sql': '-- names\n\nCREATE VIEW item_names AS SELECT id, name, nope FROM items;\n',
    });
    // Without --prove the plan shows no problem; apply would fail.
    const plain = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    const r = await cli(['plan', '--database', db.url, '--prove'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'sql/views.sql:3:1: view public.item_names: step 1 (create view public.item_names) was refused when --prove ran the plan on a copy of the database: 42703 column "nope" does not exist',
    );
    expect(r.stdout).toMatch(
      /Run on a copy without rows by --prove \(.*\/citus_migrate_prove_[0-9a-f]{10}, [\d.]+ s\): 1 step\(s\) ran, refused at step 1; the copy planned the same\./,
    );
    expect(await scratchDatabases()).not.toContain(r.stdout.match(/citus_migrate_prove_[0-9a-f]{10}/)![0]);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_views WHERE viewname = 'item_names'")).toEqual([{ n: 0 }]);
    // apply proves nothing, but says the same refusal the proof predicted.
    const a = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain('column "nope" does not exist');
  });

  it('a plan that applies is proved on a copy of what the database holds (its routines, views, rows left out), and the JSON plan carries the proof', async () => {
    const db = await freshDatabase(server, 'prove_ok');
    await db.query(`CREATE TABLE items (id bigint NOT NULL PRIMARY KEY, name text);
      INSERT INTO items SELECT g, 'n' || g FROM generate_series(1, 100) g;
      CREATE VIEW item_names AS SELECT id, name FROM items;
      CREATE FUNCTION item_count() RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM items'`);
    const dir = projectDir({
      'citus-migrate.yaml': manifest('\n      note: { type: text, not_null: true, default: "\'x\'" }'),
      'sql/views.sql': 'CREATE VIEW item_names AS SELECT id, name, note FROM items;\n',
    });
    const r = await cli(['plan', '--database', db.url, '--prove', '--format', 'json', '--detailed-exitcode'], {
      cwd: dir,
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const p = JSON.parse(r.stdout) as {
      problems: unknown[];
      proof: { ran: number; copyDiffers: string[]; remaining: string[]; refused?: unknown; leftBehind: string[] };
    };
    expect(p.problems).toEqual([]);
    expect(p.proof).toMatchObject({ copyDiffers: [], remaining: [], leftBehind: [] });
    expect(p.proof.ran).toBeGreaterThan(0);
    expect(p.proof.refused).toBeUndefined();
    // The database itself is unchanged: the proof ran elsewhere.
    expect(
      await db.query("SELECT count(*)::int AS n FROM information_schema.columns WHERE column_name = 'note'"),
    ).toEqual([{ n: 0 }]);
    const a = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(a.code, a.stdout + a.stderr).toBe(0);
  });

  it('a refusal that names what the copy lacks (a foreign key to a partition, a kind not managed, so not copied) proves nothing and says so: no problem', async () => {
    const db = await freshDatabase(server, 'prove_lacks');
    await db.query(`CREATE SCHEMA coll;
      CREATE TABLE coll.p (d date NOT NULL) PARTITION BY RANGE (d);
      CREATE TABLE coll.p1 PARTITION OF coll.p FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
      ALTER TABLE coll.p1 ADD CONSTRAINT p1_d UNIQUE (d);
      CREATE TABLE coll.fkp (d date, CONSTRAINT to_p1 FOREIGN KEY (d) REFERENCES coll.p1 (d));
      CREATE TABLE items (id bigint NOT NULL PRIMARY KEY, name text)`);
    const dir = projectDir({
      'citus-migrate.yaml': manifest(''),
      'sql/views.sql': "COMMENT ON CONSTRAINT to_p1 ON coll.fkp IS 'to one year';\n",
    });
    const r = await cli(['plan', '--database', db.url, '--prove'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /not proved: step \d+ needs foreign key to a partition coll\.fkp\.to_p1, which the copy lacks \(introspect does not copy kinds citus-migrate does not manage\)/,
    );
    expect(r.stdout).not.toContain('Problems:');
  });

  it('without CREATEDB there is no proof, and it says so (exit 1, nothing created)', async () => {
    const db = await freshDatabase(server, 'prove_nocreatedb');
    await sql(server, 'postgres', [
      'DROP ROLE IF EXISTS cm_prove_plain',
      "CREATE ROLE cm_prove_plain LOGIN PASSWORD 'pw' NOCREATEDB",
      `GRANT ALL ON DATABASE "${db.name}" TO cm_prove_plain`,
    ]);
    const url = new URL(db.url);
    url.username = 'cm_prove_plain';
    url.password = 'pw';
    const dir = projectDir({ 'citus-migrate.yaml': manifest(''), 'sql/views.sql': '' });
    const r = await cli(['plan', '--database', url.toString(), '--prove'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('may not create one (the role has no CREATEDB): give --prove-on a server where it may');
    expect(r.stderr).not.toContain('pw@');
    // --prove-on: the copy is built where the role may (here, as the test's superuser).
    const on = await cli(['plan', '--database', url.toString(), '--prove', '--prove-on', db.url], { cwd: dir });
    expect(on.stdout + on.stderr).toContain('Run on a copy without rows by --prove');
    expect(on.code, on.stdout + on.stderr).toBe(0);
  });

  it('Ctrl-C while the plan runs on the copy drops the scratch database at once and exits 130; the database is untouched', async () => {
    const db = await freshDatabase(server, 'prove_sigint');
    await db.query('CREATE TABLE items (id bigint NOT NULL PRIMARY KEY, name text)');
    const dir = projectDir({
      'citus-migrate.yaml': manifest(''),
      // Building it runs its query: 60 s on the copy.
      'sql/views.sql': 'CREATE MATERIALIZED VIEW slow AS SELECT pg_sleep(60) IS NULL AS s;\n',
    });
    const { child, done } = startCli(['plan', '--database', db.url, '--prove'], { cwd: dir });
    let sleeping = false;
    for (let i = 0; i < 200 && !sleeping; i++) {
      sleeping =
        (
          await sql<{ n: number }>(
            server,
            'postgres',
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname LIKE 'citus\\_migrate\\_prove\\_%' AND query LIKE '%pg_sleep%'",
          )
        )[0]!.n > 0;
      if (!sleeping) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sleeping).toBe(true);
    const t0 = performance.now();
    child.kill('SIGINT');
    const r = await done;
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('--prove: SIGINT: dropping the scratch database and stopping');
    expect(r.stderr).toContain('--prove interrupted: its scratch database was dropped; the database was not touched');
    expect(await scratchDatabases()).toEqual([]);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relname = 'slow'")).toEqual([{ n: 0 }]);
  });

  it('flags that say nothing alone, or conflict, are usage errors', async () => {
    const dir = projectDir({ 'citus-migrate.yaml': manifest(''), 'sql/views.sql': '' });
    const a = await cli(['plan', '--prove-on', 'postgresql://x@127.0.0.1:1/x'], { cwd: dir });
    expect([a.code, a.stderr]).toEqual([64, expect.stringContaining('alone it does nothing (add --prove)')]);
    const b = await cli(['plan', '--offline', '--prove'], { cwd: dir });
    expect([b.code, b.stderr]).toEqual([64, expect.stringContaining('--offline and --prove conflict')]);
  });
});
