#!/usr/bin/env node
// Runner overhead: on one local Citus cluster with the pgbench template applied and loaded, the
// same workload, clients and duration run by (a) pgbench with the scripts `bench --emit-pgbench`
// writes and (b) `citus-migrate bench`, for two workloads: a trivial delegated function call and
// the template's tpcb-like function. Prints both TPS and the ratio.
// Targets: >= 0.9x pgbench on tpcb-like, >= 0.6x on the trivial call.
// Usage: npm run build && node bench/runner-overhead.mjs   (CLIENTS=8 SECONDS=15 SCALE=10)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from '../dist/cluster/local.js';
import { initClusterDatabase } from '../dist/cluster/database.js';

const clients = Number(process.env.CLIENTS ?? 8);
const seconds = Number(process.env.SECONDS ?? 15);
const scale = Number(process.env.SCALE ?? 10);
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

const cluster = await startLocalCluster({ citus: true, workers: 2 });
try {
  const url = await initClusterDatabase(cluster, 'postgres');
  const dir = mkdtempSync(join(tmpdir(), 'runner-overhead-'));
  cpSync(new URL('../templates/pgbench', import.meta.url).pathname, dir, { recursive: true });
  writeFileSync(
    join(dir, 'routines/trivial.sql'),
    'CREATE FUNCTION trivial(p_bid integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p_bid; END $$;\n',
  );
  let manifest = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8')
    .replace(
      'routines:',
      'routines:\n  trivial: { file: routines/trivial.sql, distributed_by: p_bid, colocation: branches }',
    )
    .replace(
      /bench:[\s\S]*$/,
      `bench:
  clients: ${clients}
  duration: ${seconds}s
  warmup: 2s
  workloads:
    trivial:
      sql: SELECT trivial($1)
      params: [ { int: [1, ${scale}] } ]
    tpcb_like:
      sql: SELECT pgbench_tpcb($1, $2, $3, $4)
      params: [ { int: [1, ${scale}] }, { int: [1, 100000] }, { int: [1, 10] }, { int: [-5000, 5000] } ]
`,
    );
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest);
  run(process.execPath, [cli, 'apply', '--database', url, '--auto-approve'], { cwd: dir });
  run('pgbench', ['-i', '-I', 'g', '-s', String(scale), url]);
  process.stderr.write(`cluster ready: pgbench scale ${scale}, ${clients} clients, ${seconds}s per run\n`);
  const rows = [];
  for (const w of ['trivial', 'tpcb_like']) {
    const out = join(dir, `pgb-${w}`);
    const cmd = run(process.execPath, [cli, 'bench', '--workload', w, '--emit-pgbench', out, '--database', url], {
      cwd: dir,
    }).trim();
    const pg = run('sh', ['-c', cmd], { cwd: dir });
    const pgTps = Number(/tps = ([\d.]+)/.exec(pg)[1]);
    const ours = JSON.parse(
      run(process.execPath, [cli, 'bench', '--database', url, '--workload', w, '--format', 'json'], { cwd: dir }),
    );
    rows.push({
      w,
      pgTps,
      ours: ours.total.tps,
      cpu: ours.client.cpuShare,
      delegated: ours.workloads[0].delegation?.delegated,
    });
    process.stderr.write(
      `${w}: pgbench ${pgTps.toFixed(0)} TPS, citus-migrate bench ${ours.total.tps.toFixed(0)} TPS\n`,
    );
  }
  console.log(
    `runner overhead: ${clients} clients, ${seconds}s each, pgbench scale ${scale}, coordinator + 2 workers on this machine`,
  );
  for (const r of rows) {
    const target = r.w === 'trivial' ? 0.6 : 0.9;
    console.log(
      `${r.w.padEnd(10)} pgbench ${r.pgTps.toFixed(0).padStart(7)} TPS | citus-migrate bench ${r.ours.toFixed(0).padStart(7)} TPS | ratio ${(r.ours / r.pgTps).toFixed(2)}x (target >= ${target}x) | client CPU ${Math.round(r.cpu * 100)}% of a core | delegated: ${r.delegated}`,
    );
  }
} finally {
  await cluster.stop();
}
