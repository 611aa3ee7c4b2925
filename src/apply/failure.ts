// The failure report: the step that failed, its SQL with a caret under the server's error
// position, and every field of the server's error — never the "current transaction is aborted"
// that follows it.
import { CmError, EXIT } from '../errors.js';
import type { Queryable } from '../db/connect.js';
import { describeHolders, relationLockHolders } from '../db/lock-holders.js';
import { OwnStateLockTimeout } from '../own/own-schema.js';
import { formatDuration } from '../util/duration.js';

export interface ServerError {
  readonly sqlstate?: string;
  readonly message: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: number; // 1-based character offset into the statement
  readonly where?: string;
}

/** Keeps the fields of a pg DatabaseError. */
export function serverError(e: unknown): ServerError {
  const x = e as { code?: string; message?: string; detail?: string; hint?: string; position?: string; where?: string };
  return {
    ...(x.code ? { sqlstate: x.code } : {}),
    message: x.message ?? String(e),
    ...(x.detail ? { detail: x.detail } : {}),
    ...(x.hint ? { hint: x.hint } : {}),
    ...(x.position ? { position: Number(x.position) } : {}),
    ...(x.where ? { where: x.where } : {}),
  };
}

/** The statement with a caret line under the character at `position` (1-based). */
export function caret(sql: string, position: number | undefined): string {
  const lines = sql.split('\n');
  if (position === undefined || position < 1) return lines.map((l) => `    ${l}`).join('\n');
  let offset = position - 1;
  const out: string[] = [];
  let placed = false;
  for (const line of lines) {
    out.push(`    ${line}`);
    if (!placed && offset <= line.length) {
      out.push(`    ${' '.repeat(offset)}^`);
      placed = true;
    }
    offset -= line.length + 1;
  }
  return out.join('\n');
}

/** A failed apply: which step, which statement, what the server said. */
export class ApplyError extends CmError {
  constructor(
    readonly stepIndex: number,
    readonly stepSummary: string,
    readonly statement: string,
    readonly server: ServerError,
    readonly committed: boolean,
    /** After a lock timeout or a deadlock: the sessions that held locks on the step's tables (blockers.ts). */
    readonly holders: readonly string[] = [],
  ) {
    super(
      `apply failed at step ${stepIndex} (${stepSummary}): ${server.sqlstate ? `${server.sqlstate} ` : ''}${server.message}${holders.length > 0 ? `; locks on its tables were held by ${holders.join(' and ')}` : ''}`,
      'apply_failed',
      EXIT.error,
      {
        step: stepIndex,
        summary: stepSummary,
        statement,
        ...server,
        committed,
        ...(holders.length > 0 ? { holders } : {}),
      },
    );
  }

  /** The same failure, naming who held the locks. */
  withHolders(holders: readonly string[]): ApplyError {
    return new ApplyError(this.stepIndex, this.stepSummary, this.statement, this.server, this.committed, holders);
  }

  /** The multi-line report for a terminal. */
  report(): string {
    const s = this.server;
    return [
      `error: apply failed at step ${this.stepIndex}: ${this.stepSummary}`,
      `  ERROR${s.sqlstate ? ` ${s.sqlstate}` : ''}: ${s.message}`,
      ...(s.detail ? [`  DETAIL: ${s.detail}`] : []),
      ...(s.hint ? [`  HINT: ${s.hint}`] : []),
      ...(s.where ? [`  CONTEXT: ${s.where.split('\n')[0]}`] : []),
      ...(this.holders.length > 0
        ? ["  locks on the step's tables were held by:", ...this.holders.map((h) => `    ${h}`)]
        : []),
      '  statement:',
      caret(this.statement, s.position),
      this.committed
        ? '  the transaction had committed; this step ran after COMMIT'
        : '  nothing was applied: the transaction was rolled back',
    ].join('\n');
  }
}

/**
 * Runs fn, whose waits on the tool's own tables are bounded by --lock-timeout, before the plan's
 * transaction: a wait that runs out says so, and that nothing was applied (exit 6).
 */
export async function beforeCommit<T>(state: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof OwnStateLockTimeout)) throw e;
    throw new CmError(`${e.message}; ${state}: nothing was applied`, e.code, e.exitCode, {
      ...e.meta,
      committed: false,
    });
  }
}

/**
 * "reading the catalog waited longer than --lock-timeout (2s): canceling statement due to lock
 * timeout; ACCESS EXCLUSIVE locks are held by backend …": a catalog read that ran out of
 * --lock-timeout, with who holds the locks it waits for (printing a table's expressions locks it).
 */
export async function catalogLockTimeout(
  db: Queryable,
  what: string,
  lockTimeoutMs: number,
  e: Error,
): Promise<string> {
  const holders = await relationLockHolders(db);
  return `${what} waited longer than --lock-timeout (${formatDuration(lockTimeoutMs)}): ${e.message}; ${holders.length > 0 ? `ACCESS EXCLUSIVE locks are held by ${describeHolders(holders)}` : 'the lock was released since'}`;
}
