// ad-hoc: the example's mix on one plain PostgreSQL (no Citus): NOPM and server CPU per transaction
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalCluster } from './dist/cluster/local.js';
import { runMix } from './bench/lib/tpcc-driver.mjs';
const ticks = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number); return { ppid: f[1], own: f[11] + f[12], reaped: f[13] + f[14] }; };
const serverCpuMs = (node) => { const pm = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]); const p = ticks(pm); let s = p.own + p.reaped; for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) { try { const t = ticks(pid); if (t.ppid === pm) s += t.own; } catch {} } return s * 10; };
const c = await startLocalCluster({ citus: false });
try {
  const url = c.url('postgres');
  const plan = spawnSync(process.execPath, ['dist/cli.js', 'plan', '--offline', '-f', 'examples/tpcc/citus-migrate.yaml', '--format', 'sql'], { encoding: 'utf8' }).stdout;
  const ddl = plan.split('\n').filter((l) => !/create_distributed|create_reference|truncate_local|citus|SET LOCAL/i.test(l)).join('\n');
  const r1 = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url], { input: ddl, encoding: 'utf8' });
  if (r1.status) throw new Error(r1.stderr);
  spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-v', 'warehouses=8', '-f', 'examples/tpcc/load.sql', url], { encoding: 'utf8' });
  for (const [mode, clients] of [['call', 8], ['call', 1], ['statements', 8]]) {
    let s0, s1;
    const r = await runMix({ url, mode, clients, warehouses: 8, durationMs: 15000, warmupMs: 2000, seed: 7, onWindow: () => { s0 = serverCpuMs(c.coordinator); }, onWindowEnd: () => { s1 = serverCpuMs(c.coordinator); } });
    console.log(mode, clients, 'NOPM', r.nopm.toFixed(0), 'TPS', r.tps.toFixed(0), 'errors', r.errors, 'server ms/tx', ((s1 - s0) / (r.tps * 15)).toFixed(2), 'new order p50', r.byKind.new_order.p50.toFixed(1));
  }
} finally { c.stop(); }
