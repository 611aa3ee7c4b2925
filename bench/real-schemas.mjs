#!/usr/bin/env node
// Real schemas, side by side (issue #25): each of ../shared/corpora/real-schemas/<name>/schema.sql
// is loaded into a fresh database of one local PostgreSQL server and adopted with `introspect`;
// then, alternating in one run: `plan` against that database vs `pg_dump --schema-only` of it,
// and `apply` of the adopted manifest to an empty database vs `psql -f` of pg_dump's output into
// another. Prints the table (medians of RUNS) with each process's peak memory, then the fixed
// cost: `plan` of an empty manifest against an empty database vs `node -e 0` + one round trip.
// And the floor under both: `node -e 0` + a connection + the catalog query alone (timed in this
// process), what any plan reading the catalog with that query costs before doing anything else.
// Usage: npm run perf:real   (REAL_SCHEMAS=a,b to pick; RUNS=3; BENCH_URL=postgresql://…/postgres
// to use a running server; CLI=path/to/cli.js to time another build, e.g. a baseline).
// Targets: plan <= 2x pg_dump at the median and <= 1x on the largest; apply <= 1.2x psql;
// fixed cost <= 0.35 s and <= 2x (node -e 0 + one round trip).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { benchDatabases } from './lib/bench-db.mjs';
import { CATALOG_SQL_PLAIN } from '../dist/introspect/catalog-sql.js';
import { PINS, withPins } from '../dist/introspect/catalog-query.js';

const CORPUS = new URL('../../shared/corpora/real-schemas/', import.meta.url).pathname;
const runs = Number(process.env.RUNS ?? 3);
const cli = process.env.CLI ?? new URL('../dist/cli.js', import.meta.url).pathname;
const peakHook = new URL('./lib/peak-rss.mjs', import.meta.url).pathname;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => (ms === undefined ? '-' : (ms / 1000).toFixed(2));
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : `${(a / b).toFixed(2)}x`);
const log = (t) => process.stderr.write(`${t}\n`);

if (!existsSync(CORPUS)) {
  console.log(`perf:real: skipped, ${CORPUS} is missing (the corpora are checked out beside the repository)`);
  process.exit(0);
}
const only = process.env.REAL_SCHEMAS?.split(',').filter((n) => n !== '');
const names = readdirSync(CORPUS)
  .filter((n) => existsSync(join(CORPUS, n, 'schema.sql')))
  .filter((n) => !only || only.includes(n))
  .sort();

const { fresh, drop, close } = await benchDatabases();

/** Runs a command; its wall time in ms, exit code, output, and (for the CLI) peak RSS in MB. */
function timed(cmd, args, opts = {}) {
  const peakFile = join(tmpdir(), `perf-real-peak-${process.pid}`);
  rmSync(peakFile, { force: true });
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    ...opts,
    env: { ...process.env, ...opts.env, PEAK_RSS_FILE: peakFile },
  });
  const ms = performance.now() - t0;
  const peak = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) / 1024 : undefined;
  return { ms, code: r.status, stdout: r.stdout, stderr: r.stderr, peak };
}
const runCli = (args, cwd) => timed(process.execPath, ['--import', peakHook, cli, ...args], { cwd });
const firstLine = (t) =>
  (t ?? '')
    .split('\n')
    .find((l) => /error/i.test(l))
    ?.trim()
    .slice(0, 100) ?? '';

const rows = [];
const notes = [];
try {
  for (const name of names) {
    const t0 = performance.now();
    const orig = `perf_real_${name.replace(/-/g, '_')}`;
    const origUrl = await fresh(orig);
    spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=0', '-f', join(CORPUS, name, 'schema.sql'), origUrl], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const c = new pg.Client({ connectionString: origUrl });
    await c.connect();
    await c.query('VACUUM ANALYZE');
    const tables = Number(
      (
        await c.query(
          "SELECT count(*) AS n FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'",
        )
      ).rows[0].n,
    );
    await c.end();
    const dir = mkdtempSync(join(tmpdir(), `perf-real-${name}-`));
    const intro = runCli(['introspect', '--database', origUrl, '--out', join(dir, 'citus-migrate.yaml')]);
    const row = { name, tables, peak: 0 };
    rows.push(row);
    if (intro.code !== 0) {
      row.note = `introspect: ${firstLine(intro.stderr)}`;
      await drop(orig);
      continue;
    }
    const dumpFile = join(dir, 'dump.sql');
    const dump = spawnSync('pg_dump', ['--schema-only', '-f', dumpFile, origUrl], { encoding: 'utf8' });
    if (dump.status !== 0) throw new Error(dump.stderr);
    const plans = [];
    const dumps = [];
    const applies = [];
    const psqls = [];
    for (let r = 0; r < runs; r++) {
      // Alternating which goes first, so neither always finds the server's caches warm.
      const order = r % 2 === 0 ? ['plan', 'dump'] : ['dump', 'plan'];
      for (const which of order) {
        if (which === 'dump') dumps.push(timed('pg_dump', ['--schema-only', '-f', '/dev/null', origUrl]).ms);
        else {
          const p = runCli(['plan', '--database', origUrl, '--format', 'json'], dir);
          if (p.code !== 0) row.planNote = `plan exit ${p.code}: ${firstLine(p.stderr)}`;
          else {
            const doc = JSON.parse(p.stdout);
            row.steps = doc.transaction.steps.length + doc.afterCommit.length;
          }
          plans.push(p.ms);
          row.peak = Math.max(row.peak, p.peak ?? 0);
        }
      }
      const a = await fresh(`${orig}_apply`);
      const b = await fresh(`${orig}_psql`);
      for (const which of r % 2 === 0 ? ['apply', 'psql'] : ['psql', 'apply']) {
        if (which === 'psql') psqls.push(timed('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=0', '-f', dumpFile, b]).ms);
        else {
          const p = runCli(['apply', '--database', a, '--auto-approve', '--allow-hazards', 'all'], dir);
          if (p.code !== 0) row.applyNote = `apply exit ${p.code}: ${firstLine(p.stderr)}`;
          else applies.push(p.ms);
          row.peak = Math.max(row.peak, p.peak ?? 0);
        }
      }
      await drop(`${orig}_apply`);
      await drop(`${orig}_psql`);
    }
    // The floor of any plan that reads the catalog with this query: a connection and the query
    // alone, measured here (no process start-up), in a fresh session each time as plan has.
    const queries = [];
    for (let r = 0; r < runs; r++) {
      const q = new pg.Client({ connectionString: origUrl });
      const t = performance.now();
      await q.connect();
      // Under the settings plan runs it with (JIT off among them: the query's cost is above
      // jit_above_cost, and compiling it costs seconds).
      await withPins(q, CATALOG_SQL_PLAIN, PINS);
      queries.push(performance.now() - t);
      await q.end();
    }
    Object.assign(row, { plan: median(plans), dump: median(dumps), psql: median(psqls), query: median(queries) });
    if (applies.length === runs) row.apply = median(applies);
    await drop(orig);
    rmSync(dir, { recursive: true, force: true });
    log(`${name}: ${tables} tables, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }

  // Fixed cost: an empty manifest against an empty database, node's own start-up, one round trip.
  const emptyDir = mkdtempSync(join(tmpdir(), 'perf-real-empty-'));
  writeFileSync(join(emptyDir, 'citus-migrate.yaml'), 'version: 1\n');
  const emptyUrl = await fresh('perf_real_empty');
  const fixed = { plan: [], node: [], trip: [], query: [] };
  for (let r = 0; r < Math.max(5, runs); r++) {
    fixed.plan.push(runCli(['plan', '--database', emptyUrl], emptyDir).ms);
    fixed.node.push(timed(process.execPath, ['-e', '0']).ms);
    const c = new pg.Client({ connectionString: emptyUrl });
    const t = performance.now();
    await c.connect();
    await c.query('SELECT 1');
    fixed.trip.push(performance.now() - t);
    await c.end();
    const q = new pg.Client({ connectionString: emptyUrl });
    const tq = performance.now();
    await q.connect();
    await withPins(q, CATALOG_SQL_PLAIN, PINS);
    fixed.query.push(performance.now() - tq);
    await q.end();
  }
  await drop('perf_real_empty');

  const header = ['schema', 'tables', 'plan s', 'pg_dump s', 'ratio', 'apply s', 'psql s', 'ratio', 'peak MB'];
  const body = rows.map((r) => [
    r.name,
    String(r.tables),
    s(r.plan),
    s(r.dump),
    ratio(r.plan, r.dump),
    s(r.apply),
    s(r.psql),
    ratio(r.apply, r.psql),
    r.peak ? r.peak.toFixed(0) : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`perf:real (${process.env.CLI ? `CLI=${cli}, ` : ''}medians of ${runs}; plain PostgreSQL)`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? ':' : '-').padEnd(w + 1, '-') + (i === 0 ? '-' : ':')).join('|')}|`);
  for (const b of body) console.log(line(b));
  for (const r of rows) for (const n of [r.note, r.planNote, r.applyNote]) if (n) notes.push(`${r.name}: ${n}`);
  for (const n of notes) console.log(`note: ${n}`);
  const planned = rows.filter((r) => r.plan !== undefined && !r.planNote);
  if (planned.length > 0) {
    const largest = [...planned].sort((a, b) => b.tables - a.tables)[0];
    console.log(
      `plan / pg_dump: median ${median(planned.map((r) => r.plan / r.dump)).toFixed(2)}x (target <= 2x), largest (${largest.name}, ${largest.tables} tables) ${(largest.plan / largest.dump).toFixed(2)}x (target <= 1x)`,
    );
  }
  const applied = rows.filter((r) => r.apply !== undefined);
  if (applied.length > 0)
    console.log(
      `apply / psql: median ${median(applied.map((r) => r.apply / r.psql)).toFixed(2)}x over ${applied.length} schemas that apply (target <= 1.2x)`,
    );
  const [fp, fn, ft] = [median(fixed.plan), median(fixed.node), median(fixed.trip)];
  // What the targets leave room for: node's start-up + connecting + the catalog query alone.
  const floors = planned.filter((r) => r.query !== undefined).map((r) => ({ r, floor: (fn + r.query) / r.dump }));
  if (floors.length > 0) {
    const largest = [...floors].sort((a, b) => b.r.tables - a.r.tables)[0];
    console.log(
      `floor (node -e 0 + connect + catalog query, no other work) / pg_dump: median ${median(floors.map((f) => f.floor)).toFixed(2)}x, largest (${largest.r.name}) ${largest.floor.toFixed(2)}x; catalog query ${s(Math.min(...floors.map((f) => f.r.query)))}-${s(Math.max(...floors.map((f) => f.r.query)))} s`,
    );
  }
  console.log(
    `fixed cost: plan of an empty manifest vs an empty database ${s(fp)} s; node -e 0 ${s(fn)} s + one round trip ${s(ft)} s = ${s(fn + ft)} s; ratio ${(fp / (fn + ft)).toFixed(2)}x (target <= 0.35 s, <= 2x); floor: node -e 0 + connect + the catalog query on the empty database ${s(fn + median(fixed.query))} s = ${((fn + median(fixed.query)) / (fn + ft)).toFixed(2)}x`,
  );
} finally {
  await close();
}
