// bench on a real Citus cluster with the pgbench template applied: each workload is reported as
// delegated to a worker, with TPS and percentiles; --require-delegation fails when the routine's
// distribution is removed, and when a CALL workload is switched to bind parameters.
import { mkdtempSync, writeFileSync, cpSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, workerHosts } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('bench on Citus', () => {
  it('reports delegation, TPS and percentiles; --require-delegation catches the silent cases', async () => {
    const db = await freshDatabase(citus!, 'bench');
    const dir = mkdtempSync(join(tmpdir(), 'cm-bench-'));
    cpSync('templates/pgbench', dir, { recursive: true });
    const manifest = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8').replace(
      'bench:',
      ['bench:', '  # a procedure doing the same, called both ways', ''].join('\n'),
    );
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      `${manifest}    call_literals:\n      sql: CALL touch_branch($1)\n      params: [ { int: [1, 4] } ]\n`,
    );
    writeFileSync(
      join(dir, 'touch.sql'),
      'CREATE PROCEDURE touch_branch(p_bid integer) LANGUAGE plpgsql AS $$ BEGIN UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = p_bid; END $$;\n',
    );
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8').replace(
        'routines:',
        'routines:\n  touch_branch: { file: touch.sql, distributed_by: p_bid, colocation: branches }',
      ),
    );
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    await db.query(`INSERT INTO pgbench_branches SELECT b, 0, '' FROM generate_series(1, 10) b;
      INSERT INTO pgbench_tellers SELECT t, (t - 1) / 10 + 1, 0, '' FROM generate_series(1, 100) t;
      INSERT INTO pgbench_accounts SELECT a, (a - 1) / 100000 + 1, 0, '' FROM generate_series(1, 1000000, 97) a`);

    const r = await cli(
      [
        'bench',
        '--database',
        db.url,
        '--transactions',
        '400',
        '--clients',
        '4',
        '--warmup',
        '0s',
        '--require-delegation',
        '--format',
        'json',
      ],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.total.transactions).toBe(400);
    expect(report.total.tps).toBeGreaterThan(0);
    expect(report.total.latencyMs.p95).toBeGreaterThanOrEqual(report.total.latencyMs.p50);
    // Workers as Citus knows them: 127.0.0.1:port locally, a network alias on containers.
    const worker = new RegExp(
      `^(${workerHosts(citus!)
        .map((h) => h.replace(/\./g, '\\.'))
        .join('|')}):\\d+$`,
    );
    for (const w of report.workloads)
      expect(w.delegation).toMatchObject({ delegated: true, worker: expect.stringMatching(worker) });

    // The same CALL with bind parameters: Citus runs it on the coordinator, silently.
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8').replace(
        'params: [ { int: [1, 4] } ]',
        'params: [ { int: [1, 4] } ]\n      protocol: prepared',
      ),
    );
    const bound = await cli(
      [
        'bench',
        '--database',
        db.url,
        '--transactions',
        '50',
        '--clients',
        '2',
        '--warmup',
        '0s',
        '--require-delegation',
        '--workload',
        'call_literals',
      ],
      { cwd: dir },
    );
    expect(bound.code).toBe(1);
    // Known before timing: no run, no report.
    expect(bound.stdout).toBe('');
    expect(bound.stderr).toMatch(
      /^error: --require-delegation: workload call_literals is NOT delegated: CALL with bind parameters/,
    );

    // The routine's distribution removed: create_distributed_function without an argument.
    await db.query("SELECT create_distributed_function('pgbench_tpcb(integer, integer, integer, integer)')");
    const undist = await cli(
      [
        'bench',
        '--database',
        db.url,
        '--transactions',
        '50',
        '--clients',
        '2',
        '--warmup',
        '0s',
        '--require-delegation',
        '--workload',
        'tpcb_like',
      ],
      { cwd: dir },
    );
    expect(undist.code).toBe(1);
    expect(undist.stderr).toContain(
      'workload tpcb_like is NOT delegated: public.pgbench_tpcb(integer, integer, integer, integer) is not distributed with a distribution argument',
    );
  });
});

describe.skipIf(!citus)('apply --bench', () => {
  it('runs the smoke benchmark right after a successful apply', async () => {
    const db = await freshDatabase(citus!, 'appbench');
    const dir = mkdtempSync(join(tmpdir(), 'cm-appbench-'));
    cpSync('templates/saas', dir, { recursive: true });
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8').replace(
        '  duration: 30s\n  warmup: 5s',
        '  transactions: 100\n  warmup: 0s',
      ),
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--bench'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Applied 20 steps/);
    expect(r.stdout).toContain('citus-migrate bench: 8 clients');
    expect(
      workerHosts(citus!).some((h) => r.stdout.includes(`click: delegated to worker ${h}:`)),
      r.stdout,
    ).toBe(true);
  });
});
