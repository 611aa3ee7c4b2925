// `citus-migrate apply`: plans against the live cluster (or takes a saved plan, refused when
// stale), checks hazards and approval, then runs the one transaction under an advisory lock,
// records it in citus_migrate.applies, and verifies that planning again is empty.
import { hostname } from 'node:os';
import { CmError, EXIT, UsageError } from '../errors.js';
import { connectionTarget, withClient } from '../db/connect.js';
import { ensureHistorySchema, finishHistory, markAbandoned, startHistory } from '../apply/history.js';
import { executePlan, withLockTimeout } from '../apply/execute.js';
import { ApplyError } from '../apply/failure.js';
import { ApplyInterrupted, interrupted, watchInterrupts } from '../apply/interrupt.js';
import { parseHazards, refuseHazards } from '../apply/hazards.js';
import { withApplyLock } from '../apply/lock.js';
import { awaitClusterReady, transactionsInTheWay } from '../apply/cluster-guard.js';
import { stepProgress } from '../apply/progress.js';
import { rehearseText } from '../apply/rehearse-note.js';
import { readSavedPlan, refuseAltered, refuseStale, savedPlanManifest } from '../apply/saved-plan.js';
import { formatPlan } from '../format/index.js';
import { readLiveState } from '../introspect/read.js';
import { readShardState } from '../introspect/read-shards.js';
import { verifyAndRecord, verifyConverged } from '../apply/verify.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { TOOL_VERSION } from '../version.js';
import type { CommandIo } from './io.js';
import { findManifest } from './manifest-file.js';
import { planLive } from '../plan/from-manifest.js';
import { planHeadline } from '../format/plan-headline.js';
import type { PlanDocument } from '../plan/plan.js';
import { plural } from '../util/plural.js';
import { palette } from '../util/color.js';
import { recordPhase } from '../util/timings.js';

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
  const { code, manifest: m } = await applyOnly(opts, io);
  if (code !== EXIT.ok || !opts.bench || opts.rehearse) return code;
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
async function loadForApply(
  opts: ApplyOptions,
  io: CommandIo,
): Promise<{ saved?: PlanDocument; file: string; m: LoadedManifest }> {
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
  const m = await loadManifest(file, undefined, io.cwd);
  // Known before anything runs: refuse now rather than after COMMIT.
  if (opts.bench && !opts.rehearse && !m.bench)
    throw new UsageError(`--bench: ${file} has no bench section; nothing was run (add one, or apply without --bench)`);
  if (saved && saved.manifest.sha256 !== m.sha256) {
    throw new CmError(
      `stale plan: ${file} changed since ${opts.plan} was made (manifest sha256 ${saved.manifest.sha256.slice(0, 12)} -> ${m.sha256.slice(0, 12)}); nothing was run`,
      'stale_plan',
      EXIT.stalePlan,
    );
  }
  return { ...(saved ? { saved } : {}), file, m };
}

/** Asks on the terminal; without one, approval must be given with --auto-approve. */
async function approved(plan: PlanDocument, rehearse: boolean, io: CommandIo): Promise<boolean> {
  if (!io.isTTY || !io.prompt) {
    throw new CmError(
      'refusing to apply without a terminal to confirm on: review the plan and pass --auto-approve',
      'approval_required',
      EXIT.usage,
    );
  }
  io.stderr(formatPlan(plan, 'text', io.color?.stderr));
  const n = plan.transaction.steps.length + plan.afterCommit.length;
  const answer = (
    await io.prompt(`\n${rehearse ? 'Rehearse' : 'Apply'} ${n === 1 ? 'this step' : `these ${n} steps`}? [y/N] `)
  )
    .trim()
    .toLowerCase();
  return answer === 'y' || answer === 'yes';
}

async function applyOnly(opts: ApplyOptions, io: CommandIo): Promise<{ code: number; manifest: LoadedManifest }> {
  const {
    lockTimeout: lockTimeoutMs = 5000,
    statementTimeout: statementTimeoutMs = 0,
    wait: waitMs = 60_000,
    retries = 3,
  } = opts;
  const allowed = parseHazards(opts.allowHazards);

  const { saved, file, m } = await loadForApply(opts, io);
  const target = connectionTarget(opts.database, io.env);
  const timeouts = { lockTimeoutMs, retries, onRetry: (msg: string) => io.stderr(`${msg}\n`) };
  // Where the time goes, reported in the JSON result (milliseconds per phase).
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (phase: string): void => {
    const now = performance.now();
    timings[phase] = Math.round((timings[phase] ?? 0) + now - mark);
    recordPhase(phase === 'transaction' ? 'execute' : phase.replace(/_/g, ' '), mark, now);
    mark = now;
  };
  const code = await withClient(target, (client) =>
    withApplyLock(
      client,
      waitMs,
      (h) => io.stderr(`waiting up to ${Math.round(waitMs / 1000)}s for another apply (${h}) ...\n`),
      async () => {
        lap('connect_and_lock');
        const live = await withLockTimeout(client, timeouts, 'reading the catalog', () => readLiveState(client));
        const withShards = opts.shards ?? saved?.options?.shards ?? false;
        const shards = withShards ? await readShardState(client) : undefined;
        lap('read');
        const online = opts.online ?? saved?.options?.online ?? false;
        const fresh = planLive(m, live, file, { online, ...(shards ? { shards } : {}) });
        // What runs is always the plan computed now; a saved plan must be exactly it.
        const plan = fresh;
        if (saved) {
          refuseStale(saved, live.fingerprint, live.objects, opts.plan!);
          refuseAltered(saved, fresh, opts.plan!);
        }
        if (plan.problems.length > 0) {
          throw new CmError(
            `the plan has problems; nothing was run\n${plan.problems.map((p) => `  ${p.object}: ${p.message}`).join('\n')}`,
            'plan_problems',
            EXIT.error,
            { problems: plan.problems },
          );
        }
        const result = (payload: Record<string, unknown>, text: string): number => {
          if (opts.format === 'json') io.stdout(`${JSON.stringify(payload, null, 2)}\n`);
          else io.stdout(`${palette(io.color?.stdout).green(text.trimEnd())}\n`);
          return EXIT.ok;
        };
        if (!plan.changes) {
          if (!opts.rehearse) {
            await ensureHistorySchema(client);
            const id = await startHistory(client, {
              planFingerprint: live.fingerprint,
              manifestSha256: m.sha256,
              manifestFile: file,
              steps: [],
              toolVersion: TOOL_VERSION,
              clientHost: hostname(),
            });
            await finishHistory(client, id, 'nothing_to_do');
          }
          // As plan says it: never "matches" while the cluster holds what the manifest does not declare.
          const headline = planHeadline(plan);
          return result(
            { outcome: 'nothing_to_do' },
            headline.startsWith('No changes: ')
              ? 'Nothing to do: the cluster matches the manifest.\n'
              : `Nothing to do. ${headline}\n`,
          );
        }
        refuseHazards(plan, allowed);
        await awaitClusterReady(client, plan, live.doc, waitMs, (reasons) =>
          io.stderr(
            `waiting up to ${Math.round(waitMs / 1000)}s for the cluster:\n${reasons.map((r) => `  ${r}`).join('\n')}\n`,
          ),
        );
        if (!opts.autoApprove && !(await approved(plan, opts.rehearse ?? false, io))) {
          io.stderr('not applied\n');
          return EXIT.error;
        }
        const steps = [...plan.transaction.steps, ...plan.afterCommit].map((s) => ({
          index: s.index,
          kind: s.kind,
          summary: s.summary,
          hazards: s.hazards,
        }));
        // From here on Ctrl-C / SIGTERM cancel the server's work and roll back (interrupt.ts).
        const interrupts = await watchInterrupts(io.onInterrupt?.bind(io), target, client, io.stderr);
        let historyId: number | undefined;
        let committed: { transactionSteps: number } | undefined;
        try {
          if (!opts.rehearse) {
            await ensureHistorySchema(client);
            const aborted = await markAbandoned(client);
            if (aborted > 0)
              io.stderr(
                `note: ${plural(aborted, 'earlier apply', 'earlier applies')} had died mid-way (their sessions are gone); marked aborted in citus_migrate.applies\n`,
              );
            historyId = await startHistory(client, {
              planFingerprint: live.fingerprint,
              manifestSha256: m.sha256,
              manifestFile: file,
              steps,
              toolVersion: TOOL_VERSION,
              clientHost: hostname(),
            });
          }
          lap('plan_and_history');
          io.stderr(
            `${opts.rehearse ? 'rehearsing' : 'applying'} ${plural(steps.length, 'step')} in one transaction on ${target.label} ...\n`,
          );
          const inTheWay = await transactionsInTheWay(client, plan);
          if (inTheWay.length > 0)
            io.stderr(
              `note: create_distributed_table_concurrently waits for these transactions to end (its replication slot needs them gone):\n${inTheWay.map((l) => `  ${l}`).join('\n')}\n`,
            );
          let exec;
          const progress = stepProgress(plan, io);
          try {
            exec = await executePlan(client, plan, {
              lockTimeoutMs,
              statementTimeoutMs,
              retries,
              rehearse: opts.rehearse ?? false,
              onRetry: (msg) => io.stderr(`${msg}\n`),
              onStep: progress.onStep,
              signal: interrupts.signal,
            });
          } catch (e) {
            if (historyId !== undefined && !interrupts.which()) {
              const err = e instanceof ApplyError ? e.meta : { message: (e as Error).message };
              await finishHistory(client, historyId, 'failed', err).catch(() => undefined);
            }
            throw e;
          } finally {
            progress.end();
          }
          if (!opts.rehearse) committed = { transactionSteps: plan.transaction.steps.length };
          interrupts.signal.throwIfAborted();
          lap('transaction');
          if (opts.rehearse) {
            return result(
              {
                outcome: 'rehearsed',
                steps: plan.transaction.steps.length,
                notRehearsed: plan.afterCommit.map((s) => s.index),
                ms: Math.round(exec.transactionMs),
              },
              rehearseText(plan.transaction.steps, plan.afterCommit),
            );
          }
          await verifyAndRecord(client, historyId!, () => verifyConverged(client, m, plan, file, timeouts, withShards));
          lap('verify');
          return result(
            {
              outcome: 'success',
              steps: steps.length,
              attempts: exec.attempts,
              ms: Math.round(exec.transactionMs),
              afterCommit: exec.afterCommit,
              historyId,
              timings,
            },
            `Applied ${plural(steps.length, 'step')} in ${(exec.transactionMs / 1000).toFixed(2)}s${exec.attempts > 1 ? ` after ${exec.attempts} attempts` : ''}${exec.afterCommit.length ? ` (${exec.afterCommit.length === steps.length ? (steps.length === 1 ? 'after COMMIT' : 'all after COMMIT') : `${exec.afterCommit.length} of them after COMMIT`})` : ''}; verified: planning again is empty. Recorded as apply #${historyId}.\n`,
          );
        } catch (e) {
          if (!interrupts.which() || e instanceof ApplyInterrupted) throw e;
          const failure = e instanceof ApplyError ? e : undefined;
          const done = failure?.committed ? { transactionSteps: plan.transaction.steps.length } : committed;
          throw await interrupted(client, interrupts, historyId, done, failure);
        } finally {
          interrupts.dispose();
        }
      },
    ),
  );
  return { code, manifest: m };
}
