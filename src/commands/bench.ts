// `citus-migrate bench`: runs the manifest's bench workloads against the cluster, checks that
// the calls are delegated, and reports TPS and latency; gates make it a CI check.
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { BenchCheckError, CmError, EXIT, UsageError } from '../errors.js';
import { connectionTarget, withClient } from '../db/connect.js';
import { bindDataBounds, dataRefsOf, readDataBounds } from '../bench/data-bounds.js';
import { checkDelegation, failureText, type Delegation } from '../bench/delegation.js';
import { measureExecution, type Execution } from '../bench/execution.js';
import { probePooler, type PoolerProbe } from '../bench/pooler.js';
import { evaluateGates } from '../bench/gates.js';
import { generator, seededRng } from '../bench/params.js';
import { emitPgbench, pgbenchCommand, pgbenchConnection } from '../bench/pgbench.js';
import { buildReport, formatBenchMarkdown, formatBenchText, type BenchReport } from '../bench/report.js';
import { runLoad, type RunInput } from '../bench/runner.js';
import { emptyDataWarnings, emptyTables } from '../bench/empty-data.js';
import { shape } from '../bench/statement.js';
import type pg from 'pg';
import { readLiveState } from '../introspect/read.js';
import type { LiveState } from '../introspect/to-model.js';
import type { BenchWorkload } from '../manifest/resolve-bench.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { emit, type CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';

import { plural } from '../util/plural.js';

/** Options as parsed by src/cli/flags.ts: durations in ms, rates as fractions from 0 to 1. */
export interface BenchOptions {
  file?: string;
  database?: string;
  clients?: number;
  duration?: number;
  transactions?: number;
  warmup?: number;
  workload?: string[];
  seed?: number;
  requireDelegation?: boolean;
  minTps?: number;
  maxP95?: number;
  maxErrorRate?: number;
  compare?: string;
  maxRegression?: number;
  emitPgbench?: string;
  progressInterval?: number;
  format?: 'text' | 'json' | 'markdown';
  out?: string;
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** Progress on stderr: a live line on a terminal, otherwise a plain line every few seconds (logs, CI). */
function progressReporter(
  io: CommandIo,
  intervalMs = 5000,
): { input: Pick<RunInput, 'onTick' | 'tickMs'>; end(): void } {
  if (io.isTTY && !io.env.NO_COLOR) {
    return {
      input: {
        onTick: ({ done, elapsedMs: el, totalMs: tot }) => {
          const pct = tot ? Math.min(100, Math.max(0, Math.round((el / tot) * 100))) : 0;
          io.stderr(
            `\r${el < 0 ? 'warming up' : `${'#'.repeat(pct / 5).padEnd(20, '.')} ${pct}%`}  ${done} txns  ${el > 0 ? Math.round(done / (el / 1000)) : 0} TPS   `,
          );
        },
      },
      end: () => io.stderr('\n'),
    };
  }
  return {
    input: {
      tickMs: intervalMs,
      onTick: ({ done, errors, elapsedMs: el, totalMs: tot }) => {
        if (el < 0) {
          io.stderr(`bench: warming up, ${secs(-el)} to go\n`);
          return;
        }
        io.stderr(
          `bench: ${secs(el)}${tot ? ` of ${secs(tot)}` : ''}, ${done - errors} txns, ${(el > 0 ? (done - errors) / (el / 1000) : 0).toFixed(1)} TPS, ${plural(errors, 'error')}\n`,
        );
      },
    },
    end: () => undefined,
  };
}

/** What the delegation check already decides, before anything is timed. */
function preRunGates(delegation: readonly Delegation[], opts: BenchOptions): void {
  const failed = delegation.filter((d) => d.status === 'failed' && d.error);
  // Errors fail a run unless --max-error-rate allows them: a call that fails now would fail it.
  if (failed.length && opts.maxErrorRate === undefined) {
    throw new BenchCheckError(
      failed
        .map((d) => `workload ${d.workload}: the call failed before the timed run: ${failureText(d.error!)}`)
        .join('\n') + ' (fix it, or allow errors with --max-error-rate to run anyway)',
      'bench_call_failed',
      failed.map((d) => d.workload),
    );
  }
  const notDelegated = delegation.filter((d) => d.status !== 'delegated');
  if (opts.requireDelegation && notDelegated.length) {
    throw new BenchCheckError(
      notDelegated.map((d) => `--require-delegation: workload ${d.workload} is NOT delegated: ${d.reason}`).join('\n'),
      'bench_not_delegated',
      notDelegated.map((d) => d.workload),
    );
  }
}

/**
 * Behind a pooler in transaction mode a named prepared statement or a SET does not outlive its
 * transaction: `auto` workloads are then bound without a named statement (a forced `prepared` is
 * refused), and the one-call checks (delegation, which needs SET) run in a session on the
 * coordinator as pg_dist_node registers it; the timed load still goes through the pooler.
 */
async function connectionPath(
  config: pg.ClientConfig,
  live: LiveState,
  workloads: readonly BenchWorkload[],
  io: CommandIo,
): Promise<{ pooler: PoolerProbe; checkConfig: pg.ClientConfig }> {
  const pooler = await probePooler(config);
  if (!pooler.transactionPooling) return { pooler, checkConfig: config };
  const forced = workloads.filter((w) => w.protocol === 'prepared' && w.protocolForced).map((w) => w.name);
  const why = `a pooler in transaction mode is in between (${pooler.evidence}): a named prepared statement or a SET does not outlive its transaction there`;
  if (forced.length) {
    throw new UsageError(
      `workload ${forced.join(', ')} asks for protocol: prepared, but ${why}. Use protocol: auto (bench then binds values without naming the statement), a pooler that keeps named statements (PgBouncer 1.21+ with max_prepared_statements > 0), or connect directly`,
    );
  }
  const coordinator = live.doc.nodes.find((n) => n.group === 0 && n.role === 'primary');
  const checkConfig =
    live.citus && coordinator ? { ...config, host: coordinator.host, port: coordinator.port } : config;
  io.stderr(
    `bench: ${why}; SELECT workloads are bound without a named statement${checkConfig !== config ? `, and the delegation check runs in a session on the coordinator ${coordinator!.host}:${coordinator!.port} directly` : ''}\n`,
  );
  return { pooler, checkConfig };
}

/** --emit-pgbench DIR: the same workload as pgbench scripts, and the command that runs them. */
async function writePgbench(
  spec: NonNullable<LoadedManifest['bench']>,
  chosen: NonNullable<LoadedManifest['bench']>['workloads'],
  refs: ReturnType<typeof dataRefsOf>,
  settings: { clients: number; duration: number | undefined; transactions: number | undefined; seed: number },
  opts: BenchOptions & { emitPgbench: string },
  io: CommandIo,
): Promise<void> {
  const { clients, duration, transactions, seed } = settings;
  // Bounds from the data are read now and written into the scripts as numbers.
  const values = refs.length
    ? await withClient(connectionTarget(opts.database, io.env), (c) => readDataBounds(c, refs))
    : new Map<string, number>();
  const selected = bindDataBounds({ ...spec, workloads: chosen }, values).workloads;
  const dir = resolve(io.cwd, opts.emitPgbench);
  const run = emitPgbench({ ...spec, workloads: selected }, dir, {
    clients,
    ...(duration !== undefined ? { durationS: Math.round(duration / 1000) } : {}),
    ...(transactions !== undefined ? { transactions } : {}),
    seed,
  });
  // Script paths as the user named the folder: relative to where they are, or absolute.
  const path = (abs: string): string => (isAbsolute(opts.emitPgbench) ? abs : relative(io.cwd, abs));
  const conn = pgbenchConnection(opts.database, io.env);
  io.stdout(`${pgbenchCommand(run, path, conn.word)}\n`);
  io.stderr(
    `wrote ${plural(selected.length, 'pgbench script')} and run.sh to ${opts.emitPgbench}\n${conn.note ? `${conn.note}\n` : ''}`,
  );
}

/** Runs the bench for a loaded manifest; returns the report and the exit code its gates give. */
export async function runBench(
  m: LoadedManifest,
  opts: BenchOptions,
  io: CommandIo,
): Promise<{ report?: BenchReport; code: number }> {
  if (!m.bench) throw new CmError(`${m.file} has no bench section`, 'no_bench', EXIT.usage);
  const spec = m.bench;
  const clients = opts.clients ?? spec.clients;
  const transactions = opts.transactions ?? (opts.duration !== undefined ? undefined : spec.transactions);
  const duration = transactions === undefined ? (opts.duration ?? spec.durationMs ?? 30_000) : undefined;
  const warmup = opts.warmup ?? spec.warmupMs;
  const seed = opts.seed ?? 1;
  const chosen = spec.workloads.filter((w) => !opts.workload?.length || opts.workload.includes(w.name));
  const refs = dataRefsOf(chosen);
  const unknown = (opts.workload ?? []).filter((n) => !spec.workloads.some((w) => w.name === n));
  if (unknown.length)
    throw new UsageError(
      `--workload: no workload named ${unknown.join(', ')} (have: ${spec.workloads.map((w) => w.name).join(', ')})`,
    );

  if (opts.emitPgbench) {
    await writePgbench(
      spec,
      chosen,
      refs,
      { clients, duration, transactions, seed },
      { ...opts, emitPgbench: opts.emitPgbench },
      io,
    );
    return { code: EXIT.ok };
  }

  const target = connectionTarget(opts.database, io.env);
  const { live, values, empty } = await withClient(target, async (c) => {
    const live = await readLiveState(c);
    return { live, values: await readDataBounds(c, refs), empty: await emptyTables(c, declared(m, live)) };
  });
  const selected = bindDataBounds({ ...spec, workloads: chosen }, values).workloads;
  const { pooler, checkConfig } = await connectionPath(target.config, live, selected, io);
  const work = selected.map((w, i) => ({ w, s: shape(w, i, pooler.transactionPooling) }));
  const rng = seededRng(seed);
  const sample = work.map(({ w, s }) => ({ w, s, values: w.params.map((p) => generator(p, seed)(rng)) }));
  const delegation = await checkDelegation(checkConfig, live, sample);
  preRunGates(delegation, opts);
  const execution = live.citus
    ? await measureExecution(target.config, live, m, delegation, sample)
    : new Map<string, Execution>();
  const progress = progressReporter(io, opts.progressInterval);
  const run = await runLoad({
    config: target.config,
    clients,
    ...(duration !== undefined ? { durationMs: duration } : {}),
    ...(transactions !== undefined ? { transactions } : {}),
    warmupMs: warmup,
    seed,
    workloads: work,
    ...progress.input,
  });
  progress.end();
  const shards = Object.values(live.model.groups).map((g) => g.shardCount);
  const built = buildReport(
    run,
    delegation,
    {
      postgres: live.doc.server.version.split(' ')[0],
      citus: live.doc.server.citus,
      database: live.doc.server.database,
      workers: live.doc.nodes.filter((n) => n.group !== 0 && n.role === 'primary').length,
      shardCounts: [...new Set(shards)].join(', ') || 'none',
    },
    {
      clients,
      ...(duration !== undefined ? { durationMs: duration } : {}),
      ...(transactions !== undefined ? { transactions } : {}),
      warmupMs: warmup,
      seed,
      workloads: selected.map((w) => ({ name: w.name, weight: w.weight, protocol: w.protocol })),
      ...(refs.length ? { dataBounds: Object.fromEntries(refs.map((r) => [r.text, values.get(r.key)])) } : {}),
      ...(pooler.transactionPooling
        ? {
            pooler: {
              ...pooler,
              ...(checkConfig !== target.config ? { checksOn: `${checkConfig.host}:${checkConfig.port}` } : {}),
              unnamed: work.filter(({ s }) => s.protocol === 'unnamed').map(({ w }) => w.name),
            },
          }
        : {}),
    },
    execution,
  );
  const warnings = emptyDataWarnings(run.workloads, { all: declared(m, live), empty });
  for (const w of warnings) io.stderr(`warning: ${w}\n`);
  const report: BenchReport = { ...built, warnings };

  const baseline = opts.compare
    ? { name: opts.compare, report: JSON.parse(readFileSync(resolve(io.cwd, opts.compare), 'utf8')) as BenchReport }
    : undefined;
  const { failures, comparison = '' } = evaluateGates(report, opts, baseline);
  const text =
    opts.format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : opts.format === 'markdown'
        ? formatBenchMarkdown(report)
        : formatBenchText(report);
  emit(text + (opts.format === 'json' ? '' : comparison), opts.out, io);
  if (comparison && opts.format === 'json') io.stderr(comparison);
  for (const f of failures) io.stderr(`gate failed: ${f}\n`);
  return { report, code: failures.length ? EXIT.error : EXIT.ok };
}

/** The manifest's tables that exist in the cluster. */
const declared = (m: LoadedManifest, live: LiveState) =>
  Object.values(m.desired.tables)
    .filter((t) => live.model.tables[t.id])
    .map((t) => t.qname);

/** CLI entry. */
export async function benchCommand(opts: BenchOptions, io: CommandIo): Promise<number> {
  const file = findManifest(opts.file, io.cwd);
  const m = await loadManifest(file, undefined, io.cwd);
  return (await runBench(m, opts, io)).code;
}
