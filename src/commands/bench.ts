// `citus-migrate bench`: reads the flags and the manifest, runs the library's bench (bench/run.ts)
// with progress on stderr, prints the report, and exits 1 when a gate fails.
import { EXIT } from '../errors.js';
import { nodeFsWith } from '../manifest/project-io.js';
import { connectionTarget } from '../db/connect.js';
import { readBaseline } from '../bench/baseline.js';
import { formatBenchMarkdown, formatBenchText, type BenchReport } from '../bench/report.js';
import { runBenchLoad, type BenchRunOptions } from '../bench/run.js';
import { benchProgress } from './bench-progress.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { emit, type CommandIo } from './io.js';
import { writePgbench } from './bench-pgbench.js';
import { findManifest } from './manifest-file.js';

/** Options as parsed by src/cli/flags.ts: durations in ms, rates as fractions from 0 to 1. */
export interface BenchOptions extends BenchRunOptions {
  file?: string;
  database?: string;
  compare?: string;
  emitPgbench?: string;
  progressInterval?: number;
  format?: 'text' | 'json' | 'markdown';
  out?: string;
}

/** Runs the bench for a loaded manifest; returns the report and the exit code its gates give. */
export async function runBench(
  m: LoadedManifest,
  opts: BenchOptions,
  io: CommandIo,
): Promise<{ report?: BenchReport; code: number }> {
  if (opts.emitPgbench) {
    await writePgbench(m, { ...opts, emitPgbench: opts.emitPgbench }, io);
    return { code: EXIT.ok };
  }
  // Read before the run: a file that is not a bench report is refused before minutes of load.
  const baseline = opts.compare ? { name: opts.compare, report: readBaseline(opts.compare, io.cwd) } : undefined;
  const progress = benchProgress(io, opts.progressInterval);
  const { report, failures, comparison } = await runBenchLoad(
    connectionTarget(opts.database, io.env),
    m,
    progress.tickMs === undefined ? opts : { ...opts, tickMs: progress.tickMs },
    progress.onEvent,
    baseline,
  );
  progress.end();
  for (const w of report.warnings ?? []) io.stderr(`warning: ${w}\n`);
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

/** CLI entry. */
export async function benchCommand(opts: BenchOptions, io: CommandIo): Promise<number> {
  const file = findManifest(opts.file, io.cwd);
  const m = await loadManifest(file, nodeFsWith(io.env), io.cwd);
  return (await runBench(m, opts, io)).code;
}
