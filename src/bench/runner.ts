// The load loop: N connections, each with one transaction in flight, picking a workload by
// weight from its own seeded stream. Latencies go into HDR histograms (microseconds); errors are
// counted by SQLSTATE. Warm-up transactions are run but not counted.
import hdr from 'hdr-histogram-js';
import pg from 'pg';
import { connectSession } from '../db/session.js';
import type { BenchWorkload } from '../manifest/resolve-bench.js';
import { generator, seededRng, type Generator } from './params.js';
import type { Shaped } from './statement.js';

export interface RunInput {
  readonly config: pg.ClientConfig;
  readonly clients: number;
  readonly durationMs?: number;
  readonly transactions?: number;
  readonly warmupMs: number;
  readonly seed: number;
  readonly workloads: readonly { w: BenchWorkload; s: Shaped }[];
  /**
   * The search_path the load's sessions set (the workload is the user's SQL: the plan's, pg_catalog
   * first); none behind a pooler in transaction mode, where a SET would reach another client's session.
   */
  readonly searchPath?: string;
  /** Called every tickMs (default 500) with the transactions and errors counted so far. */
  readonly onTick?: (tick: Tick) => void;
  readonly tickMs?: number;
}

export interface Tick {
  readonly done: number;
  readonly errors: number;
  /** Negative while warming up. */
  readonly elapsedMs: number;
  readonly totalMs: number | undefined;
}

export interface WorkloadResult {
  readonly name: string;
  readonly count: number;
  readonly errors: Readonly<Record<string, number>>;
  readonly histogram: hdr.Histogram;
  /** The command tag of the last counted execution (UPDATE, SELECT, CALL…). */
  readonly command?: string;
  /** Counted executions whose rowCount was 0 (rows affected, or returned by a SELECT). */
  readonly zeroRows: number;
}

export interface RunResult {
  readonly measuredMs: number;
  readonly cpuMs: number;
  readonly workloads: readonly WorkloadResult[];
}

export const newHistogram = (): hdr.Histogram =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });

/** Runs the mix and returns per-workload counts, errors and latency histograms. */
export async function runLoad(input: RunInput): Promise<RunResult> {
  const total = input.workloads.reduce((s, x) => s + x.w.weight, 0);
  const runC = (seededRng(input.seed ^ 0x5eed)() * 1e9) | 0;
  const gens: Generator[][] = input.workloads.map(({ w }) => w.params.map((p) => generator(p, runC)));
  const results = input.workloads.map(({ w }) => ({
    name: w.name,
    count: 0,
    errors: {} as Record<string, number>,
    histogram: newHistogram(),
    command: undefined as string | undefined,
    zeroRows: 0,
  }));
  const clients = await Promise.all(
    Array.from({ length: input.clients }, async () => {
      const c = new pg.Client(input.config);
      c.on('error', () => undefined);
      await connectSession(c);
      if (input.searchPath !== undefined) await c.query(`SET search_path TO ${input.searchPath}`);
      return c;
    }),
  );
  const start = performance.now();
  const measureFrom = start + input.warmupMs;
  const deadline = input.durationMs !== undefined ? measureFrom + input.durationMs : Infinity;
  let counted = 0;
  let failed = 0;
  let cpuStart: NodeJS.CpuUsage | undefined;
  let measureStart = 0;
  const ticker = input.onTick
    ? setInterval(
        () =>
          input.onTick!({
            done: counted,
            errors: failed,
            elapsedMs: performance.now() - measureFrom,
            totalMs: input.durationMs,
          }),
        input.tickMs ?? 500,
      )
    : undefined;
  const more = (): boolean =>
    input.transactions !== undefined ? counted < input.transactions : performance.now() < deadline;
  try {
    await Promise.all(
      clients.map(async (client, ci) => {
        const rng = seededRng(input.seed + ci * 7919);
        while (more()) {
          let pick = rng() * total;
          let i = 0;
          while (i < input.workloads.length - 1 && pick >= input.workloads[i]!.w.weight) {
            pick -= input.workloads[i]!.w.weight;
            i++;
          }
          const { s } = input.workloads[i]!;
          const q = s.render(gens[i]!.map((g) => g(rng)));
          const t0 = performance.now();
          let code: string | undefined;
          let res: pg.QueryResult | undefined;
          try {
            res = await (q.values
              ? client.query({ ...(s.name ? { name: s.name } : {}), text: q.text, values: [...q.values] })
              : client.query(q.text));
          } catch (e) {
            code = (e as { code?: string }).code ?? 'client';
          }
          const t1 = performance.now();
          if (t0 < measureFrom) continue;
          if (!cpuStart) {
            cpuStart = process.cpuUsage();
            measureStart = t0;
          }
          if (input.transactions !== undefined && counted >= input.transactions) break;
          counted++;
          const r = results[i]!;
          if (code) {
            failed++;
            r.errors[code] = (r.errors[code] ?? 0) + 1;
            if (code === 'client') break; // the connection is gone
          } else {
            r.count++;
            r.command = res?.command;
            if (res?.rowCount === 0) r.zeroRows++;
            r.histogram.recordValue(Math.max(1, Math.round((t1 - t0) * 1000)));
          }
        }
      }),
    );
  } finally {
    if (ticker) clearInterval(ticker);
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
  const cpu = process.cpuUsage(cpuStart);
  return {
    measuredMs: performance.now() - (measureStart || measureFrom),
    cpuMs: (cpu.user + cpu.system) / 1000,
    workloads: results,
  };
}
