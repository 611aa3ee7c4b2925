// The bench report: per workload and in total, transactions, TPS, latency percentiles, errors by
// SQLSTATE, delegation; the client's CPU share (so a client-bound run is visible); environment.
import { newHistogram, type RunResult } from './runner.js';
import { failureText, type Delegation } from './delegation.js';
import type { Execution } from './execution.js';
import { plural } from '../util/plural.js';
import { dict } from '../util/dict.js';

export interface LatencyMs {
  readonly min: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export interface WorkloadReport {
  readonly name: string;
  readonly transactions: number;
  readonly tps: number;
  readonly latencyMs: LatencyMs;
  readonly errors: Readonly<Record<string, number>>;
  readonly delegation?: Delegation;
  /** Measured inside the delegated call: shard commands run on its worker and sent elsewhere. */
  readonly execution?: Execution;
}

export interface BenchReport {
  readonly format: 'citus-migrate.bench';
  readonly formatVersion: 1;
  readonly environment: Readonly<Record<string, unknown>>;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly measuredSeconds: number;
  readonly client: { readonly cpuSeconds: number; readonly cpuShare: number; readonly clientBound: boolean };
  readonly total: WorkloadReport;
  readonly workloads: readonly WorkloadReport[];
  /** What makes the figures doubtful: statements that affected no row, tables empty at the start. */
  readonly warnings?: readonly string[];
}

const ms = (us: number): number => Math.round(us) / 1000;

function latency(h: ReturnType<typeof newHistogram>): LatencyMs {
  if (h.totalCount === 0) return { min: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  return {
    min: ms(h.minNonZeroValue),
    p50: ms(h.getValueAtPercentile(50)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  };
}

/** Builds the report from a run. */
export function buildReport(
  run: RunResult,
  delegation: readonly Delegation[],
  environment: Record<string, unknown>,
  settings: Record<string, unknown>,
  execution: ReadonlyMap<string, Execution> = new Map(),
): BenchReport {
  const secs = run.measuredMs / 1000;
  const all = newHistogram();
  const errors = dict<number>();
  const workloads = run.workloads.map((w) => {
    all.add(w.histogram);
    for (const [k, v] of Object.entries(w.errors)) errors[k] = (errors[k] ?? 0) + v;
    const d = delegation.find((x) => x.workload === w.name);
    const x = execution.get(w.name);
    return {
      name: w.name,
      transactions: w.count,
      tps: w.count / secs,
      latencyMs: latency(w.histogram),
      errors: w.errors,
      ...(d ? { delegation: d } : {}),
      ...(x ? { execution: x } : {}),
    };
  });
  const count = workloads.reduce((s, w) => s + w.transactions, 0);
  const cpuShare = run.cpuMs / run.measuredMs;
  return {
    format: 'citus-migrate.bench',
    formatVersion: 1,
    environment,
    settings,
    measuredSeconds: Math.round(secs * 1000) / 1000,
    // Node runs the load loop on one thread: near one core busy means the client is the limit.
    client: {
      cpuSeconds: Math.round(run.cpuMs) / 1000,
      cpuShare: Math.round(cpuShare * 100) / 100,
      clientBound: cpuShare > 0.85,
    },
    total: { name: 'total', transactions: count, tps: count / secs, latencyMs: latency(all), errors },
    workloads,
  };
}

const errText = (e: Readonly<Record<string, number>>): string =>
  Object.entries(e)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ') || '0';
const delText = (d?: Delegation): string =>
  !d
    ? ''
    : d.status === 'failed' && d.error
      ? `call FAILED: ${failureText(d.error)}`
      : d.delegated
        ? `delegated to worker ${d.worker ?? '?'}`
        : d.status === 'unobserved'
          ? `not observed: ${d.reason}`
          : `NOT delegated: ${d.reason}`;
/** What ran inside the delegated call, measured, and what the analysis says of it. */
export const execText = (x?: Execution): string =>
  !x
    ? ''
    : x.error
      ? `; not observed inside: ${x.error}`
      : `; inside: ${x.localStatements} shard command(s) on that worker, ${x.remoteStatements} sent to other nodes${x.analysis?.note ? ` (${x.analysis.agrees ? '' : 'DISAGREES with the analysis: '}${x.analysis.note})` : ''}`;

/** What bench found between it and the server, as the report's settings hold it. */
export interface Pooler {
  readonly transactionPooling: boolean;
  readonly evidence: string;
  readonly checksOn?: string;
  readonly unnamed?: readonly string[];
}

function poolerText(p: Pooler | undefined): string[] {
  if (!p?.transactionPooling) return [];
  return [
    `connection: through a pooler in transaction mode (${p.evidence})${p.unnamed?.length ? `; ${p.unnamed.join(', ')} bound without a named statement` : ''}${p.checksOn ? `; one-call checks in a session on ${p.checksOn}` : ''}`,
  ];
}

/** Text report. */
export function formatBenchText(r: BenchReport): string {
  const head = `${'workload'.padEnd(16)} ${'txns'.padStart(9)} ${'TPS'.padStart(9)} ${'min'.padStart(8)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)}  errors`;
  const row = (w: WorkloadReport): string =>
    `${w.name.padEnd(16)} ${String(w.transactions).padStart(9)} ${w.tps.toFixed(1).padStart(9)} ${[w.latencyMs.min, w.latencyMs.p50, w.latencyMs.p95, w.latencyMs.p99, w.latencyMs.max].map((x) => x.toFixed(2).padStart(8)).join(' ')}  ${errText(w.errors)}`;
  const env = r.environment;
  return [
    `citus-migrate bench: ${plural(Number(r.settings.clients), 'client')}, ${r.measuredSeconds}s measured (latency in ms)`,
    `environment: PostgreSQL ${env.postgres}, Citus ${env.citus ?? 'not installed'}, ${plural(Number(env.workers), 'worker')}, shards: ${env.shardCounts}`,
    ...poolerText(r.settings.pooler as Pooler | undefined),
    '',
    head,
    ...r.workloads.map(row),
    row(r.total),
    '',
    'delegation:',
    ...r.workloads.map((w) => `  ${w.name}: ${delText(w.delegation)}${execText(w.execution)}`),
    '',
    `client CPU: ${r.client.cpuSeconds}s (${Math.round(r.client.cpuShare * 100)}% of one core)${r.client.clientBound ? ' — client-bound: the measurement is limited by this process, not the cluster' : ''}`,
    '',
  ].join('\n');
}

/** Markdown report. */
export function formatBenchMarkdown(r: BenchReport): string {
  const row = (w: WorkloadReport): string =>
    `| ${w.name} | ${w.transactions} | ${w.tps.toFixed(1)} | ${w.latencyMs.p50.toFixed(2)} | ${w.latencyMs.p95.toFixed(2)} | ${w.latencyMs.p99.toFixed(2)} | ${errText(w.errors)} | ${(delText(w.delegation) + execText(w.execution)).replace(/\|/g, '\\|')} |`;
  return [
    `### citus-migrate bench: ${r.settings.clients} clients, ${r.measuredSeconds}s`,
    '',
    '| workload | txns | TPS | p50 ms | p95 ms | p99 ms | errors | delegation |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...r.workloads.map(row),
    row(r.total),
    '',
    `Client CPU ${Math.round(r.client.cpuShare * 100)}% of one core${r.client.clientBound ? ' (client-bound)' : ''}. PostgreSQL ${r.environment.postgres}, Citus ${r.environment.citus ?? '—'}, ${plural(Number(r.environment.workers), 'worker')}.`,
    '',
  ].join('\n');
}
