// Ctrl-C (SIGINT) and SIGTERM during an apply. Exiting at once would leave the server working:
// the backend keeps running its statement (a create_distributed_table, a lock wait) with its locks
// until it next writes to the closed socket. So the first signal cancels the apply's statement
// from a second connection (pg_cancel_backend, its argument cast: Citus adds a bigint
// pg_cancel_backend(global_pid), and an untyped argument is ambiguous there), the apply's own code
// sees it fail (57014) and rolls back; the apply says "rolled back" only once the server shows its
// session outside any transaction, and on Citus once no part of it still runs on a worker (a part
// still running there is cancelled by its global pid). It records 'aborted' and exits 130 / 143.
// A second signal exits at once, saying what the server may still be running and how to end it.
import type { ConnectionTarget, Queryable } from '../db/connect.js';
import { withClient } from '../db/connect.js';
import { CmError, EXIT } from '../errors.js';
import { finishHistory } from '../own/history.js';
import type { OwnWait } from '../own/own-schema.js';
import type { ApplyError } from './failure.js';

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** Exit codes as shells report a process ended by the signal (128 + its number). */
export const SIGNAL_EXIT: Readonly<Record<InterruptSignal, number>> = {
  SIGINT: EXIT.interrupted,
  SIGTERM: EXIT.terminated,
};

export interface Interrupts {
  /** Aborted at the first signal: checked before each statement of the apply. */
  readonly signal: AbortSignal;
  /** The signal received, if any. */
  which(): InterruptSignal | undefined;
  /** Resolves once the cancel request has been answered (or failed). */
  cancelled(): Promise<void>;
  /** The apply's backend and, on Citus, its global pid. */
  readonly backend: { readonly pid: number; readonly gpid?: string };
  /** Where the apply runs (a second connection cancels and checks from there). */
  readonly target: ConnectionTarget;
  /** The history row, once started (named when a second signal leaves it 'running'). */
  historyId?: number;
  dispose(): void;
}

/** The error an interrupted apply exits with (its exit code is the signal's). */
export class ApplyInterrupted extends CmError {}

/** Citus encodes a backend's global pid as node id × 10^10 + pid (docs/citus-facts.md). */
const GPID_NODE_MULTIPLIER = 10_000_000_000n;

/**
 * Handles the signals for the apply running on `db` (whose backend it cancels); without
 * `subscribe` (in-process runs) nothing is ever interrupted. `citus`: the cluster runs Citus.
 */
export async function watchInterrupts(
  subscribe: ((handler: (s: InterruptSignal, again?: boolean) => void) => () => void) | undefined,
  target: ConnectionTarget,
  db: Queryable,
  say: (text: string) => void,
  citus = false,
): Promise<Interrupts> {
  const pid = (await db.query<{ pid: number }>('SELECT pg_catalog.pg_backend_pid() AS pid')).rows[0]!.pid;
  // (None before the plan creates the citus extension.)
  const gpid = citus
    ? await db
        .query<{ gpid: string }>('SELECT pg_catalog.citus_backend_gpid()::pg_catalog.text AS gpid')
        .then((r) => r.rows[0]?.gpid)
        .catch(() => undefined)
    : undefined;
  const backend = { pid, ...(gpid !== undefined ? { gpid } : {}) };
  const controller = new AbortController();
  let got: InterruptSignal | undefined;
  let cancel: Promise<void> = Promise.resolve();
  const out: Interrupts = {
    signal: controller.signal,
    which: () => got,
    cancelled: () => cancel,
    backend,
    target,
    dispose: () => unsubscribe?.(),
  };
  const unsubscribe = subscribe?.((s, again) => {
    if (again) {
      say(leftRunning(s, backend.pid, target, out.historyId));
      return;
    }
    got = s;
    controller.abort(new CmError(`interrupted (${s})`, 'interrupted', SIGNAL_EXIT[s]));
    say(`${s}: cancelling the apply's statement on the server (backend ${backend.pid}) ... (again to exit at once)\n`);
    cancel = withClient(target, async (c) => {
      await c.query('SELECT pg_catalog.pg_cancel_backend($1::pg_catalog.int4)', [backend.pid]);
    }).catch((e: Error) => say(`could not cancel backend ${backend.pid}: ${e.message}\n`));
  });
  return out;
}

/** What a second signal says as the tool exits at once. */
function leftRunning(s: InterruptSignal, pid: number, target: ConnectionTarget, historyId: number | undefined): string {
  return `${s} again: exiting now, without waiting for the server. It may still be running the apply's statement, and holding its locks, until it notices: backend ${pid} on ${target.label} (SELECT pg_catalog.pg_terminate_backend(${pid}) ends it and rolls its transaction back)${historyId !== undefined ? `; history row ${historyId} stays 'running' until the next apply marks it aborted` : ''}\n`;
}

/**
 * Whether the apply's session is outside any transaction (its rollback done): now() is the
 * transaction's start, statement_timestamp() this statement's; alike only in a transaction of its own.
 */
async function outsideTransaction(db: Queryable): Promise<boolean> {
  try {
    const r = await db.query<{ out: boolean }>(
      'SELECT pg_catalog.now() OPERATOR(pg_catalog.=) pg_catalog.statement_timestamp() AS out',
    );
    return r.rows[0]?.out === true;
  } catch {
    return false;
  }
}

/**
 * On Citus, the parts of the apply's distributed transaction still running on a node: cancelled
 * by their global pid, waited for up to `ms`; returns those left ("backend 123 on node 2").
 */
async function stopWorkerParts(db: Queryable, gpid: string, ms: number): Promise<string[]> {
  const running = async (): Promise<{ nodeid: number; pid: number }[]> =>
    (
      await db.query<{ nodeid: number; pid: number }>(
        `SELECT nodeid, pid FROM pg_catalog.citus_stat_activity
          WHERE global_pid OPERATOR(pg_catalog.=) $1::pg_catalog.int8 AND is_worker_query AND state OPERATOR(pg_catalog.=) 'active'`,
        [gpid],
      )
    ).rows;
  const until = performance.now() + ms;
  let left = await running().catch(() => []);
  while (left.length > 0 && performance.now() < until) {
    for (const p of left)
      await db
        .query('SELECT pg_catalog.pg_cancel_backend($1::pg_catalog.int8)', [
          (BigInt(p.nodeid) * GPID_NODE_MULTIPLIER + BigInt(p.pid)).toString(),
        ])
        .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    left = await running().catch(() => []);
  }
  return left.map((p) => `backend ${p.pid} on node ${p.nodeid}`);
}

/**
 * After an interrupted apply: confirms the rollback, records 'aborted' with the reason (when a
 * history row was started) and returns the error to exit with. `failure` is the step that was
 * cancelled, if any.
 */
export async function interrupted(
  db: Queryable,
  interrupts: Interrupts,
  historyId: number | undefined,
  committed: { transactionSteps: number } | undefined,
  failure?: ApplyError,
  wait?: OwnWait,
): Promise<ApplyInterrupted> {
  const s = interrupts.which()!;
  await interrupts.cancelled();
  const ended = await outsideTransaction(db);
  const gpid = interrupts.backend.gpid;
  // From a connection of its own: citus_stat_activity's own queries on the nodes carry the global
  // pid of the session that asks.
  const left =
    ended && gpid !== undefined
      ? await withClient(interrupts.target, (c) => stopWorkerParts(c, gpid, 10_000)).catch(() => [])
      : [];
  const state = !ended
    ? `the server did not confirm that the transaction ended (backend ${interrupts.backend.pid}: see pg_stat_activity)`
    : left.length > 0
      ? `rolled back on the coordinator, but parts of it still run on the workers: ${left.join(', ')} (see citus_stat_activity, global_pid ${gpid})`
      : undefined;
  const message = committed
    ? `interrupted (${s}) after COMMIT: the transaction's ${committed.transactionSteps} step(s) were committed${failure ? `; after-commit step ${failure.stepIndex} (${failure.stepSummary}) was cancelled and the rest did not run` : ''}${state ? `; ${state}` : ''}; apply again to finish`
    : state
      ? `interrupted (${s}): ${state}; nothing was committed`
      : `interrupted, rolled back (${s}): nothing was changed`;
  if (historyId !== undefined) {
    const err = { code: 'interrupted', message, signal: s, committed: committed !== undefined };
    // A cancel request that reached the server late may cancel this write: try once more.
    await finishHistory(db, historyId, 'aborted', err, wait)
      .catch(() => finishHistory(db, historyId, 'aborted', err, wait))
      .catch(() => undefined);
  }
  return new ApplyInterrupted(message, 'interrupted', SIGNAL_EXIT[s], {
    signal: s,
    committed: committed !== undefined,
    ...(state ? { unconfirmed: state } : {}),
  });
}
