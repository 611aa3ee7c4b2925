// bench on plain PostgreSQL: counts, gates and --compare; a call on a server without Citus is
// reported as not delegated, with the reason.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

describe('bench (plain PostgreSQL)', () => {
  it('counts exactly --transactions, applies gates, compares with a baseline', async () => {
    const db = await freshDatabase(plainServers(), 'pbench');
    await db.query(
      'CREATE FUNCTION add_one(x integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN x + 1; END $$',
    );
    const dir = mkdtempSync(join(tmpdir(), 'cm-pbench-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      [
        'version: 1',
        'bench:',
        '  clients: 3',
        '  transactions: 300',
        '  workloads:',
        '    a: { weight: 3, sql: "SELECT add_one($1)", params: [ { int: [1, 100] } ] }',
        '    b: { weight: 1, sql: "SELECT 1 / $1", params: [ { pick: [0, 1] } ] }',
        '',
      ].join('\n'),
    );
    const r = await cli(
      ['bench', '--database', db.url, '--format', 'json', '-o', 'base.json', '--seed', '3', '--max-error-rate', '60%'],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const again = await cli(
      ['bench', '--database', db.url, '--format', 'json', '--seed', '3', '--max-error-rate', '0.6'],
      { cwd: dir },
    );
    const rep = JSON.parse(again.stdout);
    const errors = rep.workloads[1].errors['22012'] ?? 0;
    expect(rep.total.transactions + errors).toBe(300);
    expect(errors).toBeGreaterThan(0); // division by zero, counted by SQLSTATE
    expect(rep.workloads[0].delegation).toMatchObject({
      delegated: false,
      reason:
        "public.add_one(integer) is not distributed with a distribution argument (create_distributed_function(…, '$N', colocate_with => …))",
    });

    const gated = await cli(
      [
        'bench',
        '--database',
        db.url,
        '--min-tps',
        '100000000',
        '--max-error-rate',
        '0.1%',
        '--compare',
        'base.json',
        '--max-regression',
        '0%',
      ],
      { cwd: dir },
    );
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(/gate failed: TPS [\d.]+ is below --min-tps 100000000/);
    expect(gated.stderr).toMatch(/gate failed: error rate [\d.]+% is above --max-error-rate 0\.10%/);
    expect(gated.stdout).toMatch(/compared with base\.json: TPS [\d.]+ vs [\d.]+ \([\d.]+x\)/);
    const unallowed = await cli(
      ['bench', '--database', db.url, '--workload', 'b', '--transactions', '100', '--max-error-rate', '0%'],
      { cwd: dir },
    );
    expect(unallowed.code).toBe(1);
    expect(unallowed.stderr).toMatch(/^gate failed: error rate [\d.]+% is above --max-error-rate 0\.00%\n$/);
    const md = await cli(['bench', '--database', db.url, '--format', 'markdown', '--workload', 'a'], { cwd: dir });
    expect(md.stdout).toContain('| workload | txns | TPS | p50 ms | p95 ms | p99 ms | errors | delegation |');
    expect((await cli(['bench', '--database', db.url, '--workload', 'nope'], { cwd: dir })).code).toBe(64);
  });
});

describe('bench: failures are failures', () => {
  const manifest = (sql: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-pbench-fail-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      [
        'version: 1',
        'bench:',
        '  clients: 2',
        '  workloads:',
        `    w: { sql: ${JSON.stringify(sql)}, params: [ { int: [1, 9] } ] }`,
        '',
      ].join('\n'),
    );
    return dir;
  };

  it('a call that fails stops bench before the timed run, with its SQLSTATE and message', async () => {
    const db = await freshDatabase(plainServers(), 'pbfail');
    const dir = manifest('SELECT app.f($1)');
    const t0 = Date.now();
    const r = await cli(['bench', '--database', db.url, '--duration', '20s'], { cwd: dir });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(
      'error: workload w: the call failed before the timed run: 3F000 schema "app" does not exist (fix it, or allow errors with --max-error-rate to run anyway)\n',
    );

    // Allowed: the run happens and the report says the call failed, not "NOT delegated".
    const allowed = await cli(
      ['bench', '--database', db.url, '--transactions', '20', '--max-error-rate', '100%', '--format', 'json'],
      { cwd: dir },
    );
    expect(allowed.code).toBe(0);
    const rep = JSON.parse(allowed.stdout);
    expect(rep.total.errors).toEqual({ '3F000': 20 });
    expect(rep.workloads[0].delegation).toEqual({
      workload: 'w',
      status: 'failed',
      delegated: false,
      error: { sqlstate: '3F000', message: 'schema "app" does not exist' },
      reason: 'the call failed: 3F000 schema "app" does not exist',
      debug: [],
    });
    const text = await cli(['bench', '--database', db.url, '--transactions', '20', '--max-error-rate', '1'], {
      cwd: dir,
    });
    expect(text.stdout).toContain('\ndelegation:\n  w: call FAILED: 3F000 schema "app" does not exist\n');
  });

  it('errors in the timed run fail it unless --max-error-rate allows them', async () => {
    const db = await freshDatabase(plainServers(), 'pberr');
    // The first call (the pre-run check) succeeds; every later one divides by zero.
    await db.query('CREATE SEQUENCE calls');
    await db.query(
      "CREATE FUNCTION flaky(x integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN IF nextval('calls') > 1 THEN RETURN x / 0; END IF; RETURN x; END $$",
    );
    const dir = manifest('SELECT flaky($1)');
    const r = await cli(['bench', '--database', db.url, '--transactions', '40'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  22012×40');
    expect(r.stderr).toBe('gate failed: 40 errors (100.00% of 40 transactions); allow errors with --max-error-rate\n');
    expect(
      (await cli(['bench', '--database', db.url, '--transactions', '40', '--max-error-rate', '100%'], { cwd: dir }))
        .code,
    ).toBe(0);
  });

  it('--require-delegation fails before the timed run', async () => {
    const db = await freshDatabase(plainServers(), 'pbdel');
    await db.query(
      'CREATE FUNCTION add_one(x integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN x + 1; END $$',
    );
    const dir = manifest('SELECT add_one($1)');
    const t0 = Date.now();
    const r = await cli(['bench', '--database', db.url, '--duration', '20s', '--require-delegation'], { cwd: dir });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(
      "error: --require-delegation: workload w is NOT delegated: public.add_one(integer) is not distributed with a distribution argument (create_distributed_function(…, '$N', colocate_with => …))\n",
    );
  });
});

describe('bench progress without a terminal', () => {
  it('writes a line every interval on stderr; the report stays alone on stdout', async () => {
    const db = await freshDatabase(plainServers(), 'pbprog');
    const dir = mkdtempSync(join(tmpdir(), 'cm-pbench-prog-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      ['version: 1', 'bench:', '  clients: 2', '  workloads:', '    w: { sql: "SELECT pg_sleep(0.002)" }', ''].join(
        '\n',
      ),
    );
    const r = await cli(
      [
        'bench',
        '--database',
        db.url,
        '--duration',
        '1500ms',
        '--warmup',
        '0s',
        '--progress-interval',
        '300ms',
        '--format',
        'json',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).format).toBe('citus-migrate.bench');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const l of lines) expect(l).toMatch(/^bench: \d+\.\ds of 1\.5s, \d+ txns, \d+\.\d TPS, 0 errors$/);
  });
});

describe('bench parameter bounds from the data', () => {
  it('reads { max: warehouse.w_id } once before the run; an empty table is a clear error', async () => {
    const db = await freshDatabase(plainServers(), 'pbdata');
    await db.query('CREATE TABLE warehouse (w_id integer PRIMARY KEY)');
    await db.query('INSERT INTO warehouse SELECT generate_series(1, 2)');
    // Fails, as HammerDB's new_order does, for a warehouse that is not there.
    await db.query(
      "CREATE FUNCTION neword(w integer, wmax integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN IF w > (SELECT max(w_id) FROM warehouse) OR wmax <> 2 THEN RAISE 'no warehouse %', w; END IF; RETURN w; END $$",
    );
    const dir = mkdtempSync(join(tmpdir(), 'cm-pbench-data-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      [
        'version: 1',
        'tables:',
        '  warehouse: { columns: { w_id: integer } }',
        'bench:',
        '  clients: 2',
        '  workloads:',
        '    new_order: { sql: "SELECT neword($1, $2)", params: [ { int: [1, { max: warehouse.w_id }] }, { const: { max: warehouse.w_id } } ] }',
        '',
      ].join('\n'),
    );
    const r = await cli(['bench', '--database', db.url, '--transactions', '200', '--format', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.total).toMatchObject({ transactions: 200, errors: {} });
    expect(rep.settings.dataBounds).toEqual({ 'max(warehouse.w_id)': 2 });

    const emitted = await cli(['bench', '--database', db.url, '--emit-pgbench', 'pgb'], { cwd: dir });
    expect(emitted.code).toBe(0);
    expect(readFileSync(join(dir, 'pgb/new_order.sql'), 'utf8')).toContain('\\set p1 random(1, 2)\n\\set p2 2\n');

    await db.query('TRUNCATE warehouse');
    const empty = await cli(['bench', '--database', db.url, '--transactions', '200'], { cwd: dir });
    expect(empty).toMatchObject({ code: 1, stdout: '' });
    expect(empty.stderr).toBe(
      'error: bench parameter bound max(warehouse.w_id) is empty: public.warehouse has no rows with a w_id (load the data first, or give a number)\n',
    );
  });

  it('warns when the statements touched no row and every declared table was empty, and not once it has rows', async () => {
    const db = await freshDatabase(plainServers(), 'pbenchempty');
    await db.query('CREATE TABLE acct (id integer PRIMARY KEY, v integer NOT NULL)');
    const dir = mkdtempSync(join(tmpdir(), 'cm-pbench-empty-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      [
        'version: 1',
        'tables:',
        '  acct: { local: true, columns: { id: { type: integer, not_null: true }, v: { type: integer, not_null: true } }, primary_key: [id] }',
        'bench:',
        '  clients: 2',
        '  transactions: 50',
        '  workloads:',
        '    bump: { sql: "UPDATE acct SET v = v + 1 WHERE id = $1", params: [ { int: [1, 10] } ] }',
        '',
      ].join('\n'),
    );
    const args = ['bench', '--database', db.url, '--format', 'json'];
    const empty = await cli(args, { cwd: dir });
    expect(empty.code).toBe(0);
    const expected = [
      "workload bump: every UPDATE (50 executions) updated 0 rows: its TPS measures statements that did nothing — load data, or check its parameters' ranges",
      'every table the manifest declares was empty at the start (public.acct): the workloads ran over no data — load it first',
    ];
    expect(JSON.parse(empty.stdout).warnings).toEqual(expected);
    for (const w of expected) expect(empty.stderr).toContain(`warning: ${w}\n`);

    await db.query('INSERT INTO acct SELECT g, 0 FROM generate_series(1, 10) g');
    const loaded = await cli(args, { cwd: dir });
    expect(loaded.code).toBe(0);
    expect(JSON.parse(loaded.stdout).warnings).toEqual([]);
    expect(loaded.stderr).not.toContain('warning:');
  });
});
