// The TPC-C-style example's cycle on Citus: plan, apply, load, bench with every transaction
// delegated and none failing, and an empty plan afterwards.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();
const MANIFEST = 'examples/tpcc/citus-migrate.yaml';

describe.skipIf(!citus)('examples/tpcc on Citus', () => {
  it('applies, loads 4 warehouses, runs the TPC-C mix delegated, and plans empty', async () => {
    const db = await freshDatabase(citus!, 'tpcc');
    expect((await cli(['plan', '-f', MANIFEST, '--database', db.url, '--detailed-exitcode'])).code).toBe(2);
    const applied = await cli(['apply', '-f', MANIFEST, '--database', db.url, '--auto-approve']);
    expect(applied.code).toBe(0);
    const load = db.psql({ file: 'examples/tpcc/load.sql', vars: { warehouses: '4' } });
    expect(load.stderr.split('\n').filter((l) => l.includes('ERROR'))).toEqual([]);
    expect(await db.query('SELECT count(*)::int AS n FROM district')).toEqual([{ n: 40 }]);

    const r = await cli(['bench', '-f', MANIFEST, '--database', db.url, '--transactions', '400', '--clients', '4', '--warmup', '0s', '--require-delegation', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.workloads.map((w: { name: string; delegation: { delegated: boolean } }) => [w.name, w.delegation.delegated]))
      .toEqual(['new_order', 'payment', 'order_status', 'delivery', 'stock_level'].map((n) => [n, true]));
    expect(report.total.errors).toEqual({});
    expect((await cli(['plan', '-f', MANIFEST, '--database', db.url, '--detailed-exitcode'])).code).toBe(0);
  });
});
