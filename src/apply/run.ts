// The apply sequence, as a library function: under the apply lock, read the cluster, plan (a saved
// plan must be exactly that plan, made against the same state), refuse problems, hazards and unset
// secrets, wait for the cluster guard, ask for approval, record the start in the history, run the
// transaction and the after-COMMIT steps, verify that planning again is empty. It reports progress
// as ApplyEvents to one handler and returns a typed result; it never prints.
import { hostname } from 'node:os';
import { CmError, EXIT } from '../errors.js';
import { withClient, type ConnectionTarget } from '../db/connect.js';
import { readLiveState } from '../own/live-state.js';
import { readShardState } from '../introspect/read-shards.js';
import { latch } from '../util/latch.js';
import type { LoadedManifest } from '../manifest/load.js';
import { planLive } from '../plan/from-manifest.js';
import { refusePlanProblems } from './plan-problems.js';
import type { PlanDocument } from '../plan/plan.js';
import { APPLY_SESSION_PINS } from '../plan/pinned-settings.js';
import type { LiveState } from '../model/live-state.js';
import { TOOL_VERSION } from '../version.js';
import { plural } from '../util/plural.js';
import { namingHolders, retryOnceHoldersEnd } from './blockers.js';
import { withShardSizes } from '../introspect/shard-sizes.js';
import { withCitus } from './batches.js';
import { awaitClusterReady, transactionsInTheWay } from './cluster-guard.js';
import { executePlan, withLockTimeout, type ExecuteResult } from './execute.js';
import { ApplyError, beforeCommit, catalogLockTimeout } from './failure.js';
import { refuseUnsetSecrets } from './secrets.js';
import { refuseHazards } from './hazards.js';
import { ensureHistorySchema, finishHistory, markAbandoned, startHistory } from '../own/history.js';
import type { OwnWait } from '../own/own-schema.js';
import { ApplyInterrupted, interrupted, watchInterrupts } from './interrupt.js';
import { lockLate, withApplyLock } from './lock.js';
import { refuseAltered, refuseOtherManifest, refuseStale } from './saved-plan.js';
import { checkRead, readGuard, type ReadGuard } from './read-guard.js';
import { markCatalog } from './catalog-mark.js';
import { stopwatch } from './stopwatch.js';
import { isSaved, type ApplyEvent, type ApplyResult, type ApplyRunOptions, type ApplySource } from './run-types.js';
import { verifyAndRecord, verifyConverged } from './verify.js';
import type pg from 'pg';
/**
 * Applies a manifest (or a saved plan of it) to the cluster at `target`: see the file comment.
 * Refusals and failures throw CmError subclasses (codes and exit codes as the CLI's).
 *
 * `source` may be a loader (the CLI's: the manifest is read and parsed while the server works):
 * it is called once the catalog query is on its way (a second at most; at once when another apply
 * holds the lock or the connection fails). Its error comes first, as if the source had been loaded
 * before the cluster was asked anything (which, until then, only connected, locked and read), and
 * ends the connection at once.
 */
export async function runApply(
  target: ConnectionTarget,
  source: ApplySource | (() => Promise<ApplySource>),
  options: ApplyRunOptions = {},
  onEvent: (event: ApplyEvent) => void = () => undefined,
): Promise<ApplyResult> {
  const go = latch();
  const startLoading = go.open;
  const timer = typeof source === 'function' ? setTimeout(startLoading, 1000) : undefined;
  const loading = typeof source === 'function' ? go.opened.then(source) : Promise.resolve(source);
  const stop = new AbortController();
  loading.catch(() => stop.abort());
  try {
    return await applyLoaded(target, loading, options, onEvent, { signal: stop.signal, startLoading });
  } catch (e) {
    startLoading();
    await loading; // the source's own error, when it has one, wins over what stopping caused
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function applyLoaded(
  target: ConnectionTarget,
  loading: Promise<ApplySource>,
  options: ApplyRunOptions,
  emit: (event: ApplyEvent) => void,
  { signal, startLoading }: { signal: AbortSignal; startLoading: () => void },
): Promise<ApplyResult> {
  // A source already loaded is checked before connecting.
  const early = await Promise.race([loading, Promise.resolve(undefined)]);
  if (early && isSaved(early)) refuseOtherManifest(early.savedPlan, early.manifest, early.planFile);
  const waitMs = options.waitMs ?? 60_000;
  const clock = stopwatch();
  return withClient(
    target,
    async (client) => {
      // The apply has a session of its own (its lock needs one): the plan's settings are pinned
      // for all of it, after COMMIT too, whatever the database's defaults say; its own statements
      // (the history, the guard) run with nothing but pg_catalog on the search_path.
      await client.query(APPLY_SESSION_PINS.join(';\n'));
      return withApplyLock(
        target,
        { waitMs, signal },
        (h) => {
          startLoading();
          emit({ kind: 'waiting_for_lock', holder: h, waitMs });
        },
        async (lock) => {
          clock.lap('connect_and_lock');
          const timeouts = {
            lockTimeoutMs: options.lockTimeoutMs ?? 5000,
            retries: options.retries ?? 3,
            onRetry: (message: string) => emit({ kind: 'retry', message }),
          };
          const own: OwnWait = { lockTimeoutMs: timeouts.lockTimeoutMs };
          const read = (): Promise<LiveState> =>
            withLockTimeout(client, timeouts, 'reading the catalog', () => readLiveState(client, startLoading)).catch(
              async (e: unknown) => {
                if ((e as { code?: string }).code !== '55P03') throw e;
                const why = await catalogLockTimeout(client, 'reading the catalog', timeouts.lockTimeoutMs, e as Error);
                throw new CmError(`${why}; nothing was applied`, 'lock_timeout', EXIT.error, { committed: false });
              },
            );
          for (;;) {
            // The mark first: the transaction compares the catalog with it (read-guard.ts).
            const mark = await markCatalog(client);
            const live = await read();
            const source = await loading;
            if (isSaved(source)) refuseOtherManifest(source.savedPlan, source.manifest, source.planFile);
            const m = isSaved(source) ? source.manifest : source;
            const saved = isSaved(source)
              ? { plan: source.savedPlan, name: source.planFile ?? 'the saved plan' }
              : undefined;
            const withShards = options.shards ?? saved?.plan.options?.shards ?? false;
            const shards = withShards ? await readShardState(client) : undefined;
            clock.lap('read');
            const online = options.online ?? saved?.plan.options?.online ?? false;
            // What runs is always the plan computed now (a saved plan must be exactly it), sized.
            const plan = await withShardSizes(client, live, (sizes) =>
              planLive(m, live, m.file, { online, sizes, ...(shards ? { shards } : {}) }),
            );
            if (saved) {
              refuseStale(saved.plan, live.fingerprint, live.objects, saved.name);
              refuseAltered(saved.plan, plan, saved.name);
            }
            await refusePlanProblems(plan, m.locate);
            // The first apply on a database takes the lock once it is about to write (lock.ts);
            // false: the cluster changed before it had it, so it plans again, now under the lock.
            const guard = readGuard(plan, live, m.desired, mark);
            const fixed = saved?.name ?? (options.approve ? 'approved' : undefined);
            const locked = (): Promise<boolean> =>
              lock.held() || options.rehearse
                ? Promise.resolve(true)
                : lockLate(lock, live.fingerprint, read, fixed, guard !== undefined);
            const history = { planFingerprint: live.fingerprint, manifestSha256: m.sha256, manifestFile: m.file };
            if (!plan.changes) {
              if (!options.rehearse) {
                if (!(await locked())) continue;
                await beforeCommit('the plan had nothing to do', async () => {
                  await ensureHistorySchema(client, own);
                  const id = await startHistory(
                    client,
                    { ...history, steps: [], toolVersion: TOOL_VERSION, clientHost: hostname() },
                    own,
                  );
                  await finishHistory(client, id, 'nothing_to_do', undefined, own);
                });
              }
              return { outcome: 'nothing_to_do', plan, timings: clock.timings };
            }
            refuseHazards(plan, new Set(options.allowHazards));
            refuseUnsetSecrets(plan, m.env);
            await awaitClusterReady(client, plan, live.doc, waitMs, (reasons) =>
              emit({ kind: 'waiting_for_cluster', reasons, waitMs }),
            );
            if (options.approve && !(await options.approve(plan, options.rehearse ?? false)))
              return { outcome: 'not_approved', plan, timings: clock.timings };
            if (!(await locked())) continue;
            return runSteps(
              client,
              target,
              m,
              plan,
              guard,
              history,
              { ...options, ...timeouts, shards: withShards },
              emit,
              clock,
            );
          }
        },
      );
    },
    signal,
  );
}

/** Records the start, runs the steps, verifies; an interrupt ends it with ApplyInterrupted. */
async function runSteps(
  client: pg.Client,
  target: ConnectionTarget,
  m: LoadedManifest,
  plan: PlanDocument,
  guard: ReadGuard | undefined,
  history: { planFingerprint: string; manifestSha256: string; manifestFile: string },
  options: ApplyRunOptions & { lockTimeoutMs: number; retries: number; onRetry: (msg: string) => void },
  emit: (event: ApplyEvent) => void,
  clock: ReturnType<typeof stopwatch>,
): Promise<ApplyResult> {
  const rehearse = options.rehearse ?? false;
  const steps = [...plan.transaction.steps, ...plan.afterCommit].map((s) => ({
    index: s.index,
    kind: s.kind,
    summary: s.summary,
    hazards: s.hazards,
  }));
  // From here on Ctrl-C / SIGTERM cancel the server's work and roll back (interrupt.ts).
  const say = (text: string): void => emit({ kind: 'interrupting', message: text.trimEnd() });
  const interrupts = await watchInterrupts(options.onInterrupt, target, client, say, withCitus(plan));
  let historyId: number | undefined;
  let committed: { transactionSteps: number } | undefined;
  const own: OwnWait = { lockTimeoutMs: options.lockTimeoutMs };
  try {
    if (!rehearse) {
      historyId = await beforeCommit("the plan's transaction did not start", async () => {
        await ensureHistorySchema(client, own);
        const aborted = await markAbandoned(client, own);
        if (aborted > 0)
          emit({
            kind: 'note',
            message: `${plural(aborted, 'earlier apply', 'earlier applies')} had died mid-way (their sessions are gone); marked aborted in citus_migrate.applies`,
          });
        return startHistory(client, { ...history, steps, toolVersion: TOOL_VERSION, clientHost: hostname() }, own);
      });
      interrupts.historyId = historyId;
    }
    clock.lap('plan_and_history');
    emit({ kind: 'starting', plan, rehearse, steps: steps.length, target: target.label });
    const inTheWay = await transactionsInTheWay(client, plan);
    if (inTheWay.length > 0)
      emit({
        kind: 'note',
        message: `create_distributed_table_concurrently waits for these transactions to end (its replication slot needs them gone):\n${inTheWay.map((l) => `  ${l}`).join('\n')}`,
      });
    let exec: ExecuteResult;
    try {
      exec = await executePlan(client, plan, {
        lockTimeoutMs: options.lockTimeoutMs,
        statementTimeoutMs: options.statementTimeoutMs ?? 0,
        retries: options.retries,
        rehearse,
        onRetry: options.onRetry,
        onStep: (step, afterCommit, through) =>
          emit({ kind: 'step_started', step, afterCommit, ...(through ? { through } : {}) }),
        onStepDone: (step, afterCommit, ms) => emit({ kind: 'step_finished', step, afterCommit, ms }),
        signal: interrupts.signal,
        env: m.env,
        beforeRetry: retryOnceHoldersEnd(client, plan, interrupts.signal, emit, rehearse),
        ...(guard ? { guard: (db, running) => checkRead(db, guard, running) } : {}),
        ...(rehearse ? { beforeRollback: (db) => verifyConverged(db, m, plan, m.file, options, false, true) } : {}),
      });
    } catch (caught) {
      const e = await namingHolders(client, plan, caught);
      if (historyId !== undefined && !interrupts.which()) {
        const err =
          e instanceof ApplyError
            ? e.meta
            : e instanceof CmError
              ? { code: e.code, message: e.message, ...e.meta }
              : { message: (e as Error).message };
        await finishHistory(client, historyId, 'failed', err, own).catch(() => undefined);
      }
      throw e;
    } finally {
      emit({ kind: 'steps_ended' });
    }
    if (!rehearse) committed = { transactionSteps: plan.transaction.steps.length };
    interrupts.signal.throwIfAborted();
    clock.lap('transaction');
    if (rehearse) return { outcome: 'rehearsed', plan, ms: Math.round(exec.transactionMs), timings: clock.timings };
    await verifyAndRecord(client, historyId!, steps.length, own, () =>
      verifyConverged(client, m, plan, m.file, options, options.shards ?? false),
    );
    clock.lap('verify');
    return {
      outcome: 'applied',
      plan,
      attempts: exec.attempts,
      ms: exec.transactionMs,
      afterCommit: exec.afterCommit,
      historyId: historyId!,
      timings: clock.timings,
    };
  } catch (e) {
    if (!interrupts.which() || e instanceof ApplyInterrupted) throw e;
    const failure = e instanceof ApplyError ? e : undefined;
    const done = failure?.committed ? { transactionSteps: plan.transaction.steps.length } : committed;
    throw await interrupted(client, interrupts, historyId, done, failure, own);
  } finally {
    interrupts.dispose();
  }
}
