#!/usr/bin/env node
// Apply overhead: the same plan applied by `citus-migrate apply` (lock, catalog read, history,
// one transaction, verification) and by `psql -v ON_ERROR_STOP=1 -f plan.sql`, on identical fresh
// databases of one local Citus cluster, alternating, in one run. Prints both medians and the
// ratio. Target <= 1.15x. The workload: HammerDB-shaped tables holding rows (W warehouses),
// distributed by the HammerDB template.
// Usage: npm run build && node bench/apply-overhead.mjs   (W=50 RUNS=3; BENCH_URL unsupported)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startLocalCluster } from '../dist/cluster/local.js';
import { createClusterDatabase } from '../dist/cluster/database.js';
import { hammerdbManifest } from '../dist/hammerdb/layout.js';

const W = Number(process.env.W ?? 50);
const runs = Number(process.env.RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const fixture = readFileSync(new URL('../test/fixtures/hammerdb/tables.sql', import.meta.url), 'utf8')
  .replace(/generate_series\(1, 4\) w/g, `generate_series(1, ${W}) w`)
  .replace(/generate_series\(1, 1000\) i/g, 'generate_series(1, 10000) i');
const routines = readFileSync(new URL('../test/fixtures/hammerdb/routines-procedures.sql', import.meta.url), 'utf8');

const cluster = await startLocalCluster({ citus: true, workers: 2 });
try {
  const dir = mkdtempSync(join(tmpdir(), 'apply-overhead-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), hammerdbManifest({ variant: 'procedures', shardCount: 32 }));
  const prepare = async (name) => {
    const url = await createClusterDatabase(cluster, name);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(fixture);
    await c.query(routines);
    await c.query('VACUUM ANALYZE');
    await c.end();
    return url;
  };
  const psqlTimes = [];
  const phases = [];
  const applyTimes = [];
  let rowsNote = '';
  for (let r = 0; r < runs; r++) {
    const a = await prepare(`apply_${r}`);
    const b = await prepare(`psql_${r}`);
    if (r === 0) {
      const c = new pg.Client({ connectionString: b });
      await c.connect();
      rowsNote = (await c.query('SELECT sum(n_live_tup)::bigint AS n FROM pg_stat_user_tables')).rows[0].n;
      await c.end();
    }
    const plan = spawnSync(process.execPath, [cli, 'plan', '--database', b, '--format', 'sql', '-o', 'plan.sql'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (plan.status !== 0) throw new Error(plan.stderr);
    const order = r % 2 === 0 ? ['psql', 'apply'] : ['apply', 'psql'];
    for (const which of order) {
      const t0 = performance.now();
      const res =
        which === 'psql'
          ? spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', 'plan.sql', b], {
              cwd: dir,
              encoding: 'utf8',
            })
          : spawnSync(
              process.execPath,
              [cli, 'apply', '--database', a, '--auto-approve', '--allow-hazards', 'copies_data', '--format', 'json'],
              { cwd: dir, encoding: 'utf8' },
            );
      if (which === 'apply' && res.status === 0) phases.push(JSON.parse(res.stdout).timings);
      const ms = performance.now() - t0;
      if (res.status !== 0) throw new Error(`${which}: ${res.stderr}`);
      (which === 'psql' ? psqlTimes : applyTimes).push(ms);
    }
    process.stderr.write(
      `run ${r + 1}/${runs}: psql ${(psqlTimes.at(-1) / 1000).toFixed(2)} s, apply ${(applyTimes.at(-1) / 1000).toFixed(2)} s\n`,
    );
  }
  const p = median(psqlTimes);
  const a = median(applyTimes);
  console.log(
    `workload: HammerDB template (24 steps, 32 shards) on ${W} warehouses, ${rowsNote} rows; ${runs} runs, alternating`,
  );
  console.log(`psql -v ON_ERROR_STOP=1 -f plan.sql, median: ${(p / 1000).toFixed(2)} s`);
  console.log(
    `citus-migrate apply (process start, lock, catalog read, history, transaction, verification), median: ${(a / 1000).toFixed(2)} s`,
  );
  console.log(
    `ratio apply / psql: ${(a / p).toFixed(2)}x of the medians; median of the ${runs} paired ratios: ${median(applyTimes.map((x, i) => x / psqlTimes[i])).toFixed(2)}x (target <= 1.15x)`,
  );
  const keys = Object.keys(phases[0] ?? {});
  console.log(
    `apply phases, median ms: ${keys.map((k) => `${k} ${median(phases.map((x) => x[k]))}`).join(', ')} (the rest: node start-up and module loading)`,
  );
} finally {
  await cluster.stop();
}
