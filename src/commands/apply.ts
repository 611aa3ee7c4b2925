// `citus-migrate apply`: reads the flags, the manifest and a saved plan, runs the library's apply
// (apply/run.ts) with events that print progress on stderr, and prints its result.
import { EXIT, UsageError } from '../errors.js';
import { nodeFsWith } from '../manifest/project-io.js';
import { connectionTarget } from '../db/connect.js';
import { parseHazards } from '../apply/hazards.js';
import { runApply } from '../apply/run.js';
import type { ApplyResult, ApplySource } from '../apply/run-types.js';
import { readSavedPlan, savedPlanManifest } from '../apply/saved-plan.js';
import { applyEvents, approveOnTerminal, resultJson, resultText } from './apply-events.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { palette } from '../util/color.js';
import type { CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';

export interface ApplyOptions {
  file?: string;
  plan?: string;
  database?: string;
  autoApprove?: boolean;
  allowHazards?: string;
  /** Milliseconds (parsed by the CLI's flag parsers), like statementTimeout and wait. */
  lockTimeout?: number;
  statementTimeout?: number;
  retries?: number;
  wait?: number;
  rehearse?: boolean;
  format?: 'text' | 'json';
  bench?: boolean;
  /** Every table that holds rows changes online. */
  online?: boolean;
  /** Also repair shards that differ from their table (plan --shards), and verify them after. */
  shards?: boolean;
}

/** CLI entry: apply, then (with --bench) the manifest's smoke benchmark. */
export async function applyCommand(opts: ApplyOptions, io: CommandIo): Promise<number> {
  const allowHazards = parseHazards(opts.allowHazards);
  // The manifest loads while the server reads its catalog (runApply calls the loader once the
  // catalog query is on its way); its errors still come first.
  let source: ApplySource | undefined;
  const result = await runApply(
    connectionTarget(opts.database, io.env),
    async () => (source = await loadForApply(opts, io)),
    {
      allowHazards,
      ...(opts.lockTimeout !== undefined ? { lockTimeoutMs: opts.lockTimeout } : {}),
      ...(opts.statementTimeout !== undefined ? { statementTimeoutMs: opts.statementTimeout } : {}),
      ...(opts.retries !== undefined ? { retries: opts.retries } : {}),
      ...(opts.wait !== undefined ? { waitMs: opts.wait } : {}),
      ...(opts.rehearse ? { rehearse: true } : {}),
      ...(opts.online !== undefined ? { online: opts.online } : {}),
      ...(opts.shards !== undefined ? { shards: opts.shards } : {}),
      ...(opts.autoApprove ? {} : { approve: (plan, rehearse) => approveOnTerminal(plan, rehearse, io) }),
      ...(io.onInterrupt ? { onInterrupt: io.onInterrupt.bind(io) } : {}),
    },
    applyEvents(io),
  );
  const code = printResult(result, opts.format, io);
  if (code !== EXIT.ok || !opts.bench || opts.rehearse || !source) return code;
  const m = 'savedPlan' in source ? source.manifest : source;
  io.stderr('running the smoke benchmark (bench) ...\n');
  const { runBench } = await import('./bench.js');
  return (
    await runBench(
      m,
      { ...(opts.database ? { database: opts.database } : {}), ...(opts.format === 'json' ? { format: 'json' } : {}) },
      io,
    )
  ).code;
}

/** The manifest (and saved plan) to apply, refused before anything runs when they cannot be. */
async function loadForApply(opts: ApplyOptions, io: CommandIo): Promise<ApplySource> {
  const saved = opts.plan !== undefined ? readSavedPlan(opts.plan, io.cwd) : undefined;
  if (saved && opts.online !== undefined && opts.online !== (saved.options?.online ?? false))
    throw new UsageError(
      `--online ${opts.online ? 'was given but' : 'differs:'} ${opts.plan} was planned ${saved.options?.online ? 'with' : 'without'} --online; drop the flag, or plan again`,
    );
  const file = saved
    ? savedPlanManifest(
        saved,
        opts.plan!,
        io.cwd,
        opts.file === undefined ? undefined : findManifest(opts.file, io.cwd),
      )
    : findManifest(opts.file, io.cwd);
  const m: LoadedManifest = await loadManifest(file, nodeFsWith(io.env), io.cwd);
  // Known before anything runs: refuse now rather than after COMMIT.
  if (opts.bench && !opts.rehearse && !m.bench)
    throw new UsageError(`--bench: ${file} has no bench section; nothing was run (add one, or apply without --bench)`);
  return saved ? { manifest: m, savedPlan: saved, planFile: opts.plan! } : m;
}

/** The result on stdout (text or JSON); the exit code. */
function printResult(result: ApplyResult, format: ApplyOptions['format'], io: CommandIo): number {
  if (result.outcome === 'not_approved') {
    io.stderr('not applied\n');
    return EXIT.error;
  }
  if (format === 'json') io.stdout(`${JSON.stringify(resultJson(result), null, 2)}\n`);
  else io.stdout(`${palette(io.color?.stdout).green(resultText(result).trimEnd())}\n`);
  return EXIT.ok;
}
