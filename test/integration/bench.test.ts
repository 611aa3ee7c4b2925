// bench on plain PostgreSQL: counts, gates and --compare; a call on a server without Citus is
// reported as not delegated, with the reason.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

describe('bench (plain PostgreSQL)', () => {
  it('counts exactly --transactions, applies gates, compares with a baseline', async () => {
    const db = await freshDatabase(plainServers(), 'pbench');
    await db.query('CREATE FUNCTION add_one(x integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN x + 1; END $$');
    const dir = mkdtempSync(join(tmpdir(), 'cm-pbench-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), [
      'version: 1', 'bench:', '  clients: 3', '  transactions: 300', '  workloads:',
      '    a: { weight: 3, sql: "SELECT add_one($1)", params: [ { int: [1, 100] } ] }',
      '    b: { weight: 1, sql: "SELECT 1 / $1", params: [ { pick: [0, 1] } ] }', ''].join('\n'));
    const r = await cli(['bench', '--database', db.url, '--format', 'json', '-o', 'base.json', '--seed', '3'], { cwd: dir });
    expect(r.code).toBe(0);
    const again = await cli(['bench', '--database', db.url, '--format', 'json', '--seed', '3'], { cwd: dir });
    const rep = JSON.parse(again.stdout);
    const errors = rep.workloads[1].errors['22012'] ?? 0;
    expect(rep.total.transactions + errors).toBe(300);
    expect(errors).toBeGreaterThan(0); // division by zero, counted by SQLSTATE
    expect(rep.workloads[0].delegation).toMatchObject({ delegated: false, reason: 'public.add_one(integer) is not distributed with a distribution argument (create_distributed_function(…, \'$N\', colocate_with => …))' });

    const gated = await cli(['bench', '--database', db.url, '--min-tps', '100000000', '--max-error-rate', '0.1%', '--compare', 'base.json', '--max-regression', '0%'], { cwd: dir });
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(/gate failed: TPS [\d.]+ is below --min-tps 100000000/);
    expect(gated.stderr).toMatch(/gate failed: error rate [\d.]+% is above --max-error-rate 0\.10%/);
    expect(gated.stdout).toMatch(/compared with base\.json: TPS [\d.]+ vs [\d.]+ \([\d.]+x\)/);
    const md = await cli(['bench', '--database', db.url, '--format', 'markdown', '--workload', 'a'], { cwd: dir });
    expect(md.stdout).toContain('| workload | txns | TPS | p50 ms | p95 ms | p99 ms | errors | delegation |');
    expect((await cli(['bench', '--database', db.url, '--workload', 'nope'], { cwd: dir })).code).toBe(64);
  });
});
