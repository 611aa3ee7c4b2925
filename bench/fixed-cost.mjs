#!/usr/bin/env node
// Fixed cost (issue #25): `plan` of an empty manifest against an empty database, next to what no
// CLI can beat: `node -e 0`'s start-up plus one round trip to the server (connect + SELECT 1 from
// a running process), and `--version` (start-up and the CLI's loading, no database). The runs
// alternate, so a busy machine slows each the same; prints medians and ratios, never asserts a time.
// Usage: npm run perf:fixed   (RUNS=15; BENCH_URL=postgresql://…/postgres to use a running server;
// CLIS=a/cli.js,b/cli.js to time other builds side by side, e.g. a baseline or a bundle).
// Target: plan <= 0.35 s and <= 2x (node -e 0 + one round trip); the start-up budget below.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startLocalCluster } from '../dist/cluster/local.js';

const runs = Number(process.env.RUNS ?? 15);
// The start-up budget (issue #39): what loading the CLI may add to `node -e 0`, and what an empty
// plan may add to that and one round trip. Printed against the figures, never asserted.
const LOAD_BUDGET_MS = 60;
const PLAN_BUDGET_MS = 150;
const clis = (process.env.CLIS ?? new URL('../dist/cli.js', import.meta.url).pathname).split(',').filter(Boolean);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => (ms / 1000).toFixed(3);

let server;
let base = process.env.BENCH_URL;
if (!base) {
  server = await startLocalCluster({ citus: false });
  base = server.url('postgres');
}
const admin = new pg.Client({ connectionString: base });
await admin.connect();
const DB = 'perf_fixed_empty';
await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${DB} TEMPLATE template0`);
const url = new URL(base);
url.pathname = `/${DB}`;
const emptyUrl = url.toString();
const dir = mkdtempSync(join(tmpdir(), 'perf-fixed-'));
writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\n');

/** Wall time of a process in ms; throws when it fails. */
function timed(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}
async function roundTrip() {
  const c = new pg.Client({ connectionString: emptyUrl });
  const t = performance.now();
  await c.connect();
  await c.query('SELECT 1');
  const ms = performance.now() - t;
  await c.end();
  return ms;
}

const times = { node: [], trip: [] };
for (const cli of clis) times[cli] = { plan: [], version: [] };
try {
  // One run of each first, not counted: the file cache and the server warm up.
  for (const cli of clis) timed([cli, 'plan', '--database', emptyUrl]);
  for (let r = 0; r < runs; r++) {
    times.node.push(timed(['-e', '0']));
    times.trip.push(await roundTrip());
    for (const cli of clis) {
      times[cli].plan.push(timed([cli, 'plan', '--database', emptyUrl]));
      times[cli].version.push(timed([cli, '--version']));
    }
  }
  const node = median(times.node);
  const trip = median(times.trip);
  console.log(`perf:fixed (medians of ${runs}; Node ${process.version}; load ${loadavg()})`);
  console.log(`node -e 0 ${s(node)} s + one round trip ${s(trip)} s = ${s(node + trip)} s`);
  for (const cli of clis) {
    const plan = median(times[cli].plan);
    const version = median(times[cli].version);
    console.log(
      `${clis.length > 1 ? `${cli}: ` : ''}plan (empty manifest, empty database) ${s(plan)} s, ${(plan / (node + trip)).toFixed(2)}x node + round trip (target <= 0.35 s, <= 2x); --version ${s(version)} s, ${(version / node).toFixed(2)}x node -e 0`,
    );
    // The start-up budget: what the CLI adds to node's own start before it can do anything
    // (--version: the executable, its bundle and commander loaded), and what a plan adds to
    // that and a round trip (the manifest's reader, the catalog read, the planner).
    const load = version - node;
    const work = plan - version - trip;
    console.log(
      `${clis.length > 1 ? `${cli}: ` : ''}start-up budget: loading the CLI ${load.toFixed(0)} ms (budget ${LOAD_BUDGET_MS} ms: ${load <= LOAD_BUDGET_MS ? 'within' : 'OVER'}); a plan past that and a round trip ${work.toFixed(0)} ms (budget ${PLAN_BUDGET_MS} ms: ${work <= PLAN_BUDGET_MS ? 'within' : 'OVER'})`,
    );
  }
  // Where the time of one plan goes (the CLI's own --timings), for the first build.
  const t = spawnSync(process.execPath, [clis[0], 'plan', '--database', emptyUrl, '--timings'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  console.log(t.stderr.trimEnd());
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.end();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}

function loadavg() {
  return spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.split(' ').slice(0, 3).join(' ');
}
