// The bench run, as a library function: read the cluster and the data bounds, pick the
// connection path (a pooler in transaction mode changes it), check delegation and the gates it
// already decides, measure how calls execute, run the timed load, build the report and evaluate
// the gates. It reports ticks and notes as BenchEvents to one handler and returns; it never prints.
import type pg from 'pg';
import { BenchCheckError, CmError, EXIT, UsageError } from '../errors.js';
import { withClient, type ConnectionTarget } from '../db/connect.js';
import { readLiveState } from '../own/live-state.js';
import type { LiveState } from '../model/live-state.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { BenchWorkload } from '../manifest/resolve-bench.js';
import { bindDataBounds, dataRefsOf, readDataBounds } from './data-bounds.js';
import { checkDelegation, failureText, type Delegation } from './delegation.js';
import { emptyDataWarnings, emptyTables } from './empty-data.js';
import { measureExecution, type Execution } from './execution.js';
import { evaluateGates, type Gates } from './gates.js';
import { generator, seededRng } from './params.js';
import { probePooler, type PoolerProbe } from './pooler.js';
import { PLAN_SEARCH_PATH } from '../plan/pinned-settings.js';
import { buildReport, type BenchReport } from './report.js';
import { runLoad, type Tick } from './runner.js';
import { shape } from './statement.js';

/** What to run and the gates it must pass: durations in ms, rates as fractions from 0 to 1. */
export interface BenchRunOptions extends Gates {
  clients?: number;
  duration?: number;
  transactions?: number;
  warmup?: number;
  /** Workload names to run (default: all). */
  workload?: string[];
  seed?: number;
  requireDelegation?: boolean;
  /** Milliseconds between `tick` events (default 500). */
  tickMs?: number;
}

/** Progress of a bench run, one event at a time; `kind` says which. */
export type BenchEvent =
  /** Every `tickMs` (default 500) of the timed load: the transactions and errors so far. */
  | ({ readonly kind: 'tick' } & Tick)
  /** Something that changes how the run goes (a pooler in the way). */
  | { readonly kind: 'note'; readonly message: string };

/** A bench run's report, the gates that failed (one line each) and the baseline comparison. */
export interface BenchResult {
  readonly report: BenchReport;
  readonly failures: readonly string[];
  /** Text comparing with the baseline ('' without one). */
  readonly comparison: string;
}

/** The settings a run uses: the options over the manifest's bench section. */
export function benchSettings(m: LoadedManifest, opts: BenchRunOptions) {
  if (!m.bench) throw new CmError(`${m.file} has no bench section`, 'no_bench', EXIT.usage);
  const spec = m.bench;
  const transactions = opts.transactions ?? (opts.duration !== undefined ? undefined : spec.transactions);
  const chosen = spec.workloads.filter((w) => !opts.workload?.length || opts.workload.includes(w.name));
  const unknown = (opts.workload ?? []).filter((n) => !spec.workloads.some((w) => w.name === n));
  if (unknown.length)
    throw new UsageError(
      `--workload: no workload named ${unknown.join(', ')} (have: ${spec.workloads.map((w) => w.name).join(', ')})`,
    );
  return {
    spec,
    clients: opts.clients ?? spec.clients,
    transactions,
    duration: transactions === undefined ? (opts.duration ?? spec.durationMs ?? 30_000) : undefined,
    warmup: opts.warmup ?? spec.warmupMs,
    seed: opts.seed ?? 1,
    chosen,
    refs: dataRefsOf(chosen),
  };
}

/** What the delegation check already decides, before anything is timed. */
function preRunGates(delegation: readonly Delegation[], opts: BenchRunOptions): void {
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
  emit: (event: BenchEvent) => void,
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
  emit({
    kind: 'note',
    message: `${why}; SELECT workloads are bound without a named statement${checkConfig !== config ? `, and the delegation check runs in a session on the coordinator ${coordinator!.host}:${coordinator!.port} directly` : ''}`,
  });
  return { pooler, checkConfig };
}

/**
 * Runs the manifest's bench workloads against `target` (see the file comment). Gates that fail
 * are returned in `failures`; checks decided before the timed run (a failing call, a call not
 * delegated under requireDelegation) throw BenchCheckError.
 */
export async function runBenchLoad(
  target: ConnectionTarget,
  m: LoadedManifest,
  opts: BenchRunOptions = {},
  onEvent?: (event: BenchEvent) => void,
  baseline?: { readonly name: string; readonly report: BenchReport },
): Promise<BenchResult> {
  const { spec, clients, transactions, duration, warmup, seed, chosen, refs } = benchSettings(m, opts);
  const { live, values, empty } = await withClient(target, async (c) => {
    const live = await readLiveState(c);
    return { live, values: await readDataBounds(c, refs), empty: await emptyTables(c, declared(m, live)) };
  });
  const selected = bindDataBounds({ ...spec, workloads: chosen }, values).workloads;
  const { pooler, checkConfig } = await connectionPath(target.config, live, selected, onEvent ?? (() => undefined));
  const work = selected.map((w, i) => ({ w, s: shape(w, i, pooler.transactionPooling) }));
  const rng = seededRng(seed);
  const sample = work.map(({ w, s }) => ({ w, s, values: w.params.map((p) => generator(p, seed)(rng)) }));
  const delegation = await checkDelegation(checkConfig, live, sample);
  preRunGates(delegation, opts);
  const execution = live.citus
    ? await measureExecution(target.config, live, m, delegation, sample)
    : new Map<string, Execution>();
  const run = await runLoad({
    config: target.config,
    clients,
    ...(duration !== undefined ? { durationMs: duration } : {}),
    ...(transactions !== undefined ? { transactions } : {}),
    warmupMs: warmup,
    seed,
    workloads: work,
    ...(pooler.transactionPooling ? {} : { searchPath: PLAN_SEARCH_PATH }),
    ...(onEvent ? { onTick: (t: Tick) => onEvent({ kind: 'tick', ...t }) } : {}),
    ...(opts.tickMs !== undefined ? { tickMs: opts.tickMs } : {}),
  });
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
  const report: BenchReport = { ...built, warnings };
  const { failures, comparison = '' } = evaluateGates(report, opts, baseline);
  return { report, failures, comparison };
}

/** The manifest's tables that exist in the cluster. */
const declared = (m: LoadedManifest, live: LiveState) =>
  Object.values(m.desired.tables)
    .filter((t) => live.model.tables[t.id])
    .map((t) => t.qname);
