// The TPC-C-style example's cycle on Citus: plan, apply, load, bench with every transaction
// delegated and none failing, and an empty plan afterwards.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkConsistency, runMix } from '../../bench/lib/tpcc-driver.mjs';
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

    const r = await cli([
      'bench',
      '-f',
      MANIFEST,
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
    ]);
    expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('bench: '))).toEqual([]); // progress lines aside
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(
      report.workloads.map((w: { name: string; delegation: { delegated: boolean } }) => [
        w.name,
        w.delegation.delegated,
      ]),
    ).toEqual(['new_order', 'payment', 'order_status', 'delivery', 'stock_level'].map((n) => [n, true]));
    expect(report.total.errors).toEqual({});
    expect((await cli(['plan', '-f', MANIFEST, '--database', db.url, '--detailed-exitcode'])).code).toBe(0);
  });

  it("runs the payoff benchmark's driver both ways (CALL, and the statements one by one) with no errors and TPC-C consistency kept", async () => {
    const db = await freshDatabase(citus!, 'tpccdrv');
    expect((await cli(['apply', '-f', MANIFEST, '--database', db.url, '--auto-approve'])).code).toBe(0);
    db.psql({ file: 'examples/tpcc/load.sql', vars: { warehouses: '2' } });
    for (const mode of ['call', 'statements'] as const) {
      const r = await runMix({ url: db.url, mode, clients: 4, warehouses: 2, durationMs: 2000 });
      expect(r.firstError).toEqual({});
      expect(r.byKind.new_order.ok).toBeGreaterThan(0);
      expect(r.byKind.payment.ok).toBeGreaterThan(0);
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      expect(await checkConsistency(client)).toEqual([]);
      // The checks can fail: break one condition and it is named.
      await client.query('UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 1');
      expect(await checkConsistency(client)).toEqual(['w_ytd = sum(d_ytd)']);
    } finally {
      await client.end();
    }
  });
});
