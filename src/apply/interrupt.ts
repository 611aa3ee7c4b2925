// Ctrl-C (SIGINT) and SIGTERM during an apply. Exiting at once would leave the server working:
// the backend keeps running its statement (a create_distributed_table, a lock wait) with its locks
// until it next writes to the closed socket. So the first signal cancels the apply's statement
// from a second connection (pg_cancel_backend), the apply's own code sees it fail (57014), rolls
// back, records 'aborted' and exits 130 / 143. A second signal exits at once (io.onInterrupt).
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
  dispose(): void;
}

/** The error an interrupted apply exits with (its exit code is the signal's). */
export class ApplyInterrupted extends CmError {}

/**
 * Handles the signals for the apply running on `db` (whose backend it cancels); without
 * `subscribe` (in-process runs) nothing is ever interrupted.
 */
export async function watchInterrupts(
  subscribe: ((handler: (s: InterruptSignal) => void) => () => void) | undefined,
  target: ConnectionTarget,
  db: Queryable,
  say: (text: string) => void,
): Promise<Interrupts> {
  const pid = (await db.query<{ pid: number }>('SELECT pg_catalog.pg_backend_pid() AS pid')).rows[0]!.pid;
  const controller = new AbortController();
  let got: InterruptSignal | undefined;
  let cancel: Promise<void> = Promise.resolve();
  const unsubscribe = subscribe?.((s) => {
    got = s;
    controller.abort(new CmError(`interrupted (${s})`, 'interrupted', SIGNAL_EXIT[s]));
    say(`${s}: cancelling the apply's statement on the server (backend ${pid}) ... (again to exit at once)\n`);
    cancel = withClient(target, async (c) => {
      await c.query('SELECT pg_catalog.pg_cancel_backend($1)', [pid]);
    }).catch((e: Error) => say(`could not cancel backend ${pid}: ${e.message}\n`));
  });
  return {
    signal: controller.signal,
    which: () => got,
    cancelled: () => cancel,
    dispose: () => unsubscribe?.(),
  };
}

/**
 * After an interrupted apply: records 'aborted' with the reason (when a history row was
 * started) and returns the error to exit with. `failure` is the step that was cancelled, if any.
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
  const message = committed
    ? `interrupted (${s}) after COMMIT: the transaction's ${committed.transactionSteps} step(s) were committed${failure ? `; after-commit step ${failure.stepIndex} (${failure.stepSummary}) was cancelled and the rest did not run` : ''}; apply again to finish`
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
  });
}
