// Runs a plan: one transaction (sequential mode first, then lock and statement timeouts), the
// steps, COMMIT (or ROLLBACK when rehearsing); a lock_timeout (55P03) or a deadlock (40P01: on
// Citus, the distributed deadlock detector cancels one transaction of a cycle that spans nodes)
// rolls back and retries with backoff. The transaction's statements go in batches (batch.ts), a step that may run long
// in a message of its own; steps that cannot run in a transaction run after COMMIT, one at a time (paced: pace.ts).
import type pg from 'pg';
import type { Queryable } from '../db/connect.js';
import { CmError } from '../errors.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { BatchFailure, BatchMismatch, failedNodesMessage, runBatch } from './batch.js';
import { batches, type Unit } from './batches.js';
import { ApplyError, serverError } from './failure.js';
import { sentSql, type Env } from './secrets.js';
import { PLAN_SEARCH_PATH, TOOL_SEARCH_PATH } from '../plan/pinned-settings.js';
import { afterCommitLockMs, pacedRun, swapDeadlockSql } from './pace.js';

export interface ExecuteOptions {
  readonly lockTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly retries: number;
  readonly rehearse: boolean;
  readonly onRetry: (message: string) => void;
  /**
   * Called before each step runs (in the transaction, then after COMMIT); `through`: the last
   * step of the batch it went in with, when later steps went too (the server may be on any of them).
   */
  readonly onStep?: (step: PlanStep, afterCommit: boolean, through?: PlanStep) => void;
  /** Called after a step's statements ran without error, with its time. */
  readonly onStepDone?: (step: PlanStep, afterCommit: boolean, ms: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * Before a retry after attempt n failed on `e`: waits for the sessions that held the lock to
   * end their transactions (blockers.ts's waitOutHolders, at most `maxMs`), calling `announce`
   * first when it found some. 'ended': they did (retry now); 'none': none was found (the
   * backoff); 'timeout': they held on (retry now).
   */
  readonly beforeRetry?: (e: unknown, maxMs: number, announce: () => void) => Promise<'ended' | 'none' | 'timeout'>;
  /** Aborted (Ctrl-C, SIGTERM): no further statement starts; the transaction rolls back. */
  readonly signal?: AbortSignal;
  /**
   * Run in the transaction after its preamble, before the first step (read-guard.ts's checkRead):
   * it throws a CmError to refuse (rolled back, thrown as it is); `running` names the statement
   * in flight for a failure's report. Bounded by the lock timeout like the steps, retried on it.
   */
  readonly guard?: (db: Queryable, running: (sql: string) => void) => Promise<void>;
  readonly env?: Env; // where a user mapping's `'${env:NAME}'` options get their values when sent (secrets.ts)
  /** When rehearsing: run after the steps, before the ROLLBACK (verify.ts: that it would converge). */
  readonly beforeRollback?: (db: pg.Client) => Promise<void>;
}

export interface ExecuteResult {
  readonly attempts: number;
  readonly transactionMs: number;
  readonly afterCommit: readonly { index: number; summary: string; ms: number }[];
}

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The failures a retry may cure: another session held a lock too long, or a deadlock with one. */
const RETRIED: Readonly<Record<string, string>> = { '55P03': 'lock_timeout', '40P01': 'deadlock' };

/** "lock_timeout" or "deadlock" when `e` is a step's failure that a retry may cure. */
export const retriedFailure = (e: unknown): string | undefined =>
  e instanceof ApplyError && e.server.sqlstate !== undefined ? RETRIED[e.server.sqlstate] : undefined;

/** Backoff before retry n (1-based): 1s, 2s, 4s, … at most 30s. */
export const backoffMs = (n: number): number => Math.min(30_000, 1000 * 2 ** (n - 1));

/** The longest wait for a lock's holders before retry n (1-based): 15s, 30s, 60s, … at most 60s. */
export const waitOutMs = (n: number): number => Math.min(60_000, 15_000 * 2 ** (n - 1));

/**
 * Between attempt n and the next: waits for the sessions that held the failed step's tables to
 * end their transactions when it can tell (opts.beforeRetry), else the backoff.
 */
async function retryWait(e: unknown, retried: string, n: number, where: string, opts: ExecuteOptions): Promise<void> {
  const next = `attempt ${n + 1} of ${opts.retries + 1}`;
  const waited = await opts.beforeRetry?.(e, waitOutMs(n), () =>
    opts.onRetry(
      `${retried} at ${where}; rolled back, retrying once the sessions that held its tables end their transactions (at most ${waitOutMs(n) / 1000}s; ${next})`,
    ),
  );
  if (waited === 'ended' || waited === 'timeout' || opts.signal?.aborted) return;
  opts.onRetry(`${retried} at ${where}; rolled back, retrying in ${backoffMs(n) / 1000}s (${next})`);
  await (opts.sleep ?? defaultSleep)(backoffMs(n));
}

/**
 * Runs a read under lock_timeout, retrying on 55P03. The catalog read takes AccessShareLock on
 * tables with column defaults (pg_get_expr opens the relation), so it waits behind an ALTER or
 * LOCK TABLE like pg_dump does; under apply that wait is bounded like the steps are.
 */
export async function withLockTimeout<T>(
  db: Queryable,
  opts: Pick<ExecuteOptions, 'lockTimeoutMs' | 'retries' | 'onRetry' | 'sleep'>,
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  const sleep = opts.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    await db.query(`SET lock_timeout = ${Math.max(0, Math.round(opts.lockTimeoutMs))}`);
    try {
      return await fn();
    } catch (e) {
      if ((e as { code?: string }).code !== '55P03' || attempt > opts.retries) throw e;
      opts.onRetry(
        `lock_timeout while ${what} (a table is locked by another session); retrying in ${backoffMs(attempt) / 1000}s (attempt ${attempt + 1} of ${opts.retries + 1})`,
      );
      await sleep(backoffMs(attempt));
    } finally {
      await db.query('RESET lock_timeout').catch(() => undefined);
    }
  }
}

/** How a failure before the first step names what ran: the guard's statements, or the preamble. */
const GUARDING = 'locking and reading again what the plan changes';

async function runTransaction(
  db: pg.Client,
  plan: PlanDocument,
  opts: ExecuteOptions,
  oneByOne: boolean,
): Promise<void> {
  await db.query('BEGIN');
  const preamble = [
    ...plan.transaction.preamble,
    `SET LOCAL lock_timeout = ${Math.max(0, Math.round(opts.lockTimeoutMs))}`,
    `SET LOCAL statement_timeout = ${Math.max(0, Math.round(opts.statementTimeoutMs))}`,
  ];
  let current: { step?: PlanStep; sql: string; what?: string } = { sql: '' };
  let started = 0;
  let announced: PlanStep | undefined;
  // A step starts when the statement before it is reported done (or its message goes out).
  const begin = (u: Unit, through: Unit): void => {
    current = u;
    if (!u.first || !u.step) return;
    if (u.step === announced) return;
    started = performance.now();
    opts.onStep?.(u.step, false, through.step !== u.step ? through.step : undefined);
  };
  try {
    if (opts.guard) {
      // The preamble first (lock_timeout among it: settings only, in one message), then the
      // guard's locks and read, then the steps. The first step is reported as started before
      // the guard: its locks are what the guard may wait for (progress names it meanwhile).
      current = { sql: preamble.join(';\n') };
      await db.query(current.sql);
      announced = plan.transaction.steps[0];
      if (announced) {
        started = performance.now();
        opts.onStep?.(announced, false);
      }
      await opts.guard(db, (sql) => (current = { sql, what: GUARDING }));
    }
    for (const batch of batches(plan, opts.guard ? [] : preamble, oneByOne)) {
      opts.signal?.throwIfAborted();
      const last = batch[batch.length - 1]!;
      begin(batch[0]!, last);
      try {
        await runBatch(
          db,
          batch.map((u) => sentSql(u.step, u.sql, opts.env)),
          (i) => {
            const u = batch[i]!;
            if (u.last && u.step) opts.onStepDone?.(u.step, false, performance.now() - started);
            if (i + 1 < batch.length) begin(batch[i + 1]!, last);
          },
        );
      } catch (e) {
        if (!(e instanceof BatchFailure)) throw e;
        current = batch[e.index]!;
        throw e.cause;
      }
    }
    current = { sql: 'COMMIT' };
    opts.signal?.throwIfAborted();
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    if (e instanceof BatchMismatch || e instanceof CmError) throw e;
    throw new ApplyError(
      current.step?.index ?? 0,
      current.step?.summary ?? current.what ?? 'transaction preamble',
      current.sql,
      serverError(e),
      false,
    );
  }
  if (opts.rehearse && opts.beforeRollback) {
    try {
      await opts.beforeRollback(db);
    } finally {
      await db.query('ROLLBACK');
    }
    return;
  }
  await db.query(opts.rehearse ? 'ROLLBACK' : 'COMMIT');
}

/** Applies the plan's transaction (with retries) and its after-commit steps. */
export async function executePlan(db: pg.Client, plan: PlanDocument, opts: ExecuteOptions): Promise<ExecuteResult> {
  let attempts = 0;
  let oneByOne = false;
  const t0 = performance.now();
  for (;;) {
    attempts++;
    try {
      await runTransaction(db, plan, opts, oneByOne);
      break;
    } catch (e) {
      if (e instanceof BatchMismatch && !oneByOne) {
        // Rolled back: what each reply meant is unknown. Again, a statement per message.
        opts.onRetry(`${e.message}; rolled back, running the transaction again one statement at a time`);
        oneByOne = true;
        attempts--;
        continue;
      }
      const retried = retriedFailure(e);
      if (!retried || attempts > opts.retries || opts.signal?.aborted) throw e;
      await retryWait(
        e,
        retried,
        attempts,
        `step ${(e as ApplyError).stepIndex} (${(e as ApplyError).stepSummary})`,
        opts,
      );
      if (opts.signal?.aborted) throw e;
    }
  }
  const transactionMs = performance.now() - t0;
  const afterCommit: { index: number; summary: string; ms: number }[] = [];
  if (!opts.rehearse) {
    for (const step of plan.afterCommit) {
      opts.onStep?.(step, true);
      const s0 = performance.now();
      for (let attempt = 1; ; attempt++) {
        try {
          await runAfterCommit(db, plan, step, opts);
          break;
        } catch (e) {
          // A step in a transaction of its own rolled back on lock_timeout or a deadlock: retried like the plan's.
          const retried = retriedFailure(e);
          if (!retried || step.hazards.includes('non_transactional') || attempt > opts.retries) throw e;
          if (opts.signal?.aborted) throw e;
          await retryWait(e, retried, attempt, `step ${step.index} (${step.summary})`, opts);
        }
      }
      afterCommit.push({ index: step.index, summary: step.summary, ms: performance.now() - s0 });
      opts.onStepDone?.(step, true, performance.now() - s0);
    }
  }
  return { attempts, transactionMs, afterCommit };
}

/**
 * One step after COMMIT. A step that only waits for an online one runs in a transaction of its
 * own, under --lock-timeout and --statement-timeout like the plan's (it takes the same locks:
 * truncate_local_data_after_distributing_table holds ACCESS EXCLUSIVE). The others (CONCURRENTLY,
 * procedures that commit) run statement by statement and wait for older transactions by design,
 * without blocking writes, so they are not bounded.
 */
async function runAfterCommit(db: Queryable, plan: PlanDocument, step: PlanStep, opts: ExecuteOptions): Promise<void> {
  const own = !step.hazards.includes('non_transactional');
  const lockMs = afterCommitLockMs(step, opts.lockTimeoutMs);
  const deadlock = own ? await swapDeadlockSql(step, db) : [];
  // Outside a transaction, the user's statements get the plan's search_path for their time only.
  const sqls = own
    ? [
        'BEGIN',
        ...plan.transaction.preamble,
        `SET LOCAL lock_timeout = ${Math.max(0, Math.round(lockMs))}`,
        `SET LOCAL statement_timeout = ${Math.max(0, Math.round(opts.statementTimeoutMs))}`,
        ...deadlock,
        ...step.sql,
        'COMMIT',
      ]
    : [`SET search_path TO ${PLAN_SEARCH_PATH}`, ...step.sql, `SET search_path TO ${TOOL_SEARCH_PATH}`];
  for (const sql of sqls) {
    try {
      opts.signal?.throwIfAborted();
      refuseFailedNodes(
        await pacedRun(step, sql, sql === sqls.at(-1), opts.signal, () => db.query(sentSql(step, sql, opts.env))),
      );
    } catch (e) {
      if (own) await db.query('ROLLBACK').catch(() => undefined);
      throw new ApplyError(step.index, step.summary, sql, serverError(e), true);
    }
  }
}

/**
 * run_command_on_workers reports a worker it could not run the command on as a row with
 * success = false instead of failing: such a row fails the step, naming the node and why.
 */
function refuseFailedNodes(r: unknown): void {
  const rows = (r as { rows?: { nodename?: string; nodeport?: number; success?: boolean; result?: string }[] })?.rows;
  const failed = (rows ?? []).filter((x) => x.success === false && x.nodename !== undefined);
  if (failed.length === 0) return;
  throw new Error(failedNodesMessage(failed.map((x) => `${x.nodename}:${x.nodeport}: ${x.result ?? ''}`)));
}
