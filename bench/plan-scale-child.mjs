// One timed plan for bench/plan-scale.mjs, in its own process so its peak memory is its own:
// what `citus-migrate plan --format json` does (the manifest loaded while the cluster answers
// the catalog query, diff, JSON), through the same functions.
// Usage: node plan-scale-child.mjs <manifest> <url> [<dist folder of the build to time>]
const [manifest, url, dist = new URL('../dist', import.meta.url).pathname] = process.argv.slice(2);
const { loadAndRead } = await import(`${dist}/own/read-database.js`);
const { planLive } = await import(`${dist}/plan/from-manifest.js`);
const { formatPlan } = await import(`${dist}/format/index.js`);

const t = performance.now();
const { m, live } = await loadAndRead(manifest, url, { env: process.env, cwd: process.cwd() });
const plan = planLive(m, live);
const out = formatPlan(plan, 'json');
const trips = 1 + live.roundTrips; // the connection itself, then the queries
console.log(
  JSON.stringify({
    ms: performance.now() - t,
    trips,
    rssMB: process.resourceUsage().maxRSS / 1024,
    steps: plan.transaction.steps.length + plan.afterCommit.length,
    unmanaged: plan.unmanaged.length,
    notManaged: plan.notManaged.length,
    bytes: out.length,
  }),
);
