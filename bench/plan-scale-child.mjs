// One timed plan for bench/plan-scale.mjs, in its own process so its peak memory is its own:
// load the manifest, read the cluster (counting round trips), diff, render JSON.
import pg from 'pg';
import { loadManifest } from '../dist/manifest/load.js';
import { readLiveState } from '../dist/introspect/read.js';
import { planLive } from '../dist/commands/plan.js';
import { formatPlan } from '../dist/format/index.js';

const [manifest, url] = process.argv.slice(2);
const t = performance.now();
const m = await loadManifest(manifest);
const c = new pg.Client({ connectionString: url });
await c.connect();
let trips = 1; // the connection itself
const query = c.query.bind(c);
c.query = (...a) => { trips++; return query(...a); };
const live = await readLiveState(c);
await c.end();
const plan = planLive(m, live);
const out = formatPlan(plan, 'json');
console.log(JSON.stringify({ ms: performance.now() - t, trips, rssMB: process.resourceUsage().maxRSS / 1024, steps: plan.transaction.steps.length + plan.afterCommit.length, unmanaged: plan.unmanaged.length, notManaged: plan.notManaged.length, bytes: out.length }));
