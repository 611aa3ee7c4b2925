// Behind a real PgBouncer (Debian's, 1.18: before named prepared statements were kept) in
// transaction pooling: named prepared statements are lost between transactions (pinned here);
// plan reads the catalog through it; bench detects the pooler, binds SELECT workloads without a
// named statement, checks delegation in a session on the coordinator, and still measures what
// runs inside each delegated call; a workload that forces protocol: prepared is refused.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, type TestDb } from '../support/db.js';
import { startPgbouncer, type Bouncer } from '../support/pgbouncer.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = (protocol: string): string => `version: 1
colocation: { wh: { shard_count: 4, anchor: warehouse } }
tables:
  warehouse: { distributed_by: w_id, colocation: wh, columns: { w_id: { type: integer, not_null: true }, w_ytd: integer }, primary_key: [w_id] }
  calls: { distributed_by: w_id, colocation: wh, columns: { w_id: { type: integer, not_null: true }, port: integer } }
routines:
  ytd: { file: routines/ytd.sql, distributed_by: p_w_id, colocation: wh }
  pay: { file: routines/pay.sql, distributed_by: p_w_id, colocation: wh }
bench:
  clients: 4
  transactions: 200
  workloads:
    ytd: { sql: "SELECT ytd($1)", params: [ { int: [1, 8] } ], protocol: ${protocol} }
    pay: { sql: "CALL pay($1)", params: [ { int: [1, 8] } ] }
`;

describe.skipIf(!citus)('through PgBouncer in transaction pooling', () => {
  let db: TestDb;
  let bouncer: Bouncer;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    db = await freshDatabase(citus!, 'bouncer');
    dir = mkdtempSync(join(tmpdir(), 'cm-bouncer-'));
    mkdirSync(join(dir, 'routines'));
    writeFileSync(
      join(dir, 'routines', 'ytd.sql'),
      'CREATE FUNCTION ytd(p_w_id integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT w_ytd FROM warehouse WHERE w_id = p_w_id); END $$;\n',
    );
    writeFileSync(
      join(dir, 'routines', 'pay.sql'),
      `CREATE PROCEDURE pay(p_w_id integer) LANGUAGE plpgsql AS $$
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = p_w_id;
  INSERT INTO calls VALUES (p_w_id, inet_server_port()); -- the port of the node the body runs on
END $$;
`,
    );
    writeFileSync(join(dir, 'citus-migrate.yaml'), MANIFEST('auto'));
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    await db.query('INSERT INTO warehouse SELECT w, 0 FROM generate_series(1, 8) w');
    const c = citus!.nodes[0]!;
    bouncer = await startPgbouncer({
      host: c.host,
      port: c.port,
      user: citus!.user,
      ...(citus!.password ? { password: citus!.password } : {}),
    });
    url = `postgresql://${encodeURIComponent(citus!.user)}@127.0.0.1:${bouncer.port}/${db.name}`;
  });
  afterAll(async () => {
    await bouncer?.stop();
  });

  it('PgBouncer 1.18 in transaction mode loses a named prepared statement when the server connection changes', async () => {
    expect(bouncer.version).toMatch(/^PgBouncer 1\.\d+/);
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    try {
      await a.query({ name: 'probe', text: 'SELECT $1::int AS x', values: [1] });
      const holding = b.query('SELECT pg_sleep(0.3)'); // takes the server connection a just used
      await new Promise((r) => setTimeout(r, 100));
      await expect(a.query({ name: 'probe', text: 'SELECT $1::int AS x', values: [2] })).rejects.toMatchObject({
        code: '26000',
      });
      await holding;
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('plan reads the catalog through it', async () => {
    const r = await cli(['plan', '--database', url, '--detailed-exitcode'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('bench works through it: SELECT workloads unnamed, delegation checked on the coordinator, locality measured on the workers', async () => {
    const r = await cli(['bench', '--database', url, '--warmup', '0s', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    const c = citus!.nodes[0]!;
    expect(r.stderr).toContain(`bench: a pooler in transaction mode is in between (one client connection had backend`);
    const report = JSON.parse(r.stdout);
    expect(report.settings.pooler).toMatchObject({
      transactionPooling: true,
      checksOn: `${c.registerAs?.host ?? c.host}:${c.registerAs?.port ?? c.port}`,
      unnamed: ['ytd'],
    });
    expect(report.total.errors).toEqual({});
    expect(report.total.transactions).toBe(200);
    for (const w of report.workloads) {
      expect(w.delegation.status).toBe('delegated');
      expect(w.execution).toMatchObject({ remoteStatements: 0, analysis: { agrees: true } });
      expect(w.execution.localStatements).toBeGreaterThan(0);
    }
    // The timed calls that went through the pooler were delegated: each body ran on a worker.
    const payTxns = report.workloads.find((w: { name: string }) => w.name === 'pay').transactions;
    expect(payTxns).toBeGreaterThan(0);
    const ran = await db.query<{ port: number; n: number }>(
      'SELECT port, count(*)::int AS n FROM calls GROUP BY port ORDER BY port',
    );
    expect(ran.map((r) => r.port)).toEqual(
      [...new Set(citus!.nodes.slice(1).map((n) => n.registerAs?.port ?? n.port))].sort((a, b) => a - b),
    );
    expect(ran.reduce((n, r) => n + r.n, 0)).toBeGreaterThanOrEqual(payTxns);
    const text = await cli(['bench', '--database', url, '--warmup', '0s', '--transactions', '20'], { cwd: dir });
    expect(text.stdout).toMatch(
      /connection: through a pooler in transaction mode \(.*\); ytd bound without a named statement; one-call checks in a session on /,
    );
  });

  it('refuses a workload that forces protocol: prepared, saying what to do', async () => {
    const forced = mkdtempSync(join(tmpdir(), 'cm-bouncer-forced-'));
    mkdirSync(join(forced, 'routines'));
    for (const f of ['ytd.sql', 'pay.sql'])
      writeFileSync(join(forced, 'routines', f), (await import('node:fs')).readFileSync(join(dir, 'routines', f)));
    writeFileSync(join(forced, 'citus-migrate.yaml'), MANIFEST('prepared'));
    const r = await cli(['bench', '--database', url, '--warmup', '0s'], { cwd: forced });
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(
      'workload ytd asks for protocol: prepared, but a pooler in transaction mode is in between',
    );
    expect(r.stderr).toContain('PgBouncer 1.21+ with max_prepared_statements > 0');
  });
});
