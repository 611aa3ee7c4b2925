// bench/delegation-payoff end to end on a fresh local Citus cluster, in miniature: every mode runs
// at two delays without errors, the tool's delegation check agrees with each mode, and TPC-C's
// consistency holds afterwards. Figures are printed, never asserted.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findPgInstall } from '../../src/cluster/local.js';
import { citusServers } from '../support/db.js';

// The script starts its own cluster from the local binaries (its workers must be registered
// behind the proxy), so it needs the citus extension installed here, not just a Citus URL.
const local = citusServers() !== null && findPgInstall()?.hasCitus === true;

describe.skipIf(!local)('bench/delegation-payoff (needs the citus extension in the local PostgreSQL)', () => {
  it('prints NOPM for (a), (b) and (c) at each delay, the ratios, and keeps the data consistent', async () => {
    const child = spawn(process.execPath, ['bench/delegation-payoff.mjs'], {
      env: {
        ...process.env,
        CLIENTS: '4',
        WAREHOUSES: '2',
        DURATION: '2',
        WARMUP: '0.5',
        DELAYS: '0,0.5',
        SINGLE_DELAY: '',
        SEQ_DURATION: '1',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const rows = stdout.split('\n').filter((l) => /^\| 0(\.5)? ms \(/.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatch(
        /^\| [\d.]+ ms \([\d.]+ ms\) \| [\d,]+ NOPM \| [\d,]+ NOPM \| [\d,]+ NOPM \| [\d.]+× \| [\d.]+× \|$/,
      );
    expect(stdout).toMatch(/\| \(c\) 0\.5 ms \| [\d.]+ ms \| \d+ \| 0 \|/);
    expect(stdout).toContain(
      'new order: (a) NOT delegated (public.new_order_tx(integer, integer, integer, integer) is not distributed with a distribution argument); (b) delegated to 127.0.0.1:',
    );
    expect(stdout).toMatch(/CACHE 1 [\d,]+ rows\/s, CACHE 1000 [\d,]+ rows\/s, ratio [\d.]+×; duplicate ids: 0\./);
    expect(stdout).toContain('TPC-C consistency conditions 1-4 after all runs: ok.');
    expect(stdout).toMatch(
      /Reference, the same procedures and mix on one plain PostgreSQL \(no Citus, no proxy, 4 clients\): [\d,]+ NOPM, .* errors 0;/,
    );
    expect(stderr).toMatch(/\(a\) 4 client\(s\) at 0\.5 ms: \d+ NOPM/);
  });
});
