// The apply lock serialises applies: citus_migrate.apply_lock, locked (own/apply-lock.ts) by a
// transaction on a connection of its own for the whole apply (the apply's own connection commits,
// and runs statements outside any transaction after COMMIT). Only the applying role and
// superusers can take it (own/apply-lock.ts), unlike an advisory lock key, which any role that may
// connect can hold. A second apply waits up to --wait for it, then fails naming the holder: its
// role, application, backend and since when. On a database no apply has written to yet there is
// no lock to take: the apply creates it only once it is about to write (run.ts), so an apply that
// is refused or declined leaves nothing behind. The lock's connection ends with the apply, on
// every path: returned, thrown, or the process gone (the server then rolls its transaction back).
import { withClient, type ConnectionTarget, type Queryable } from '../db/connect.js';
import { describeHolders } from '../db/lock-holders.js';
import { CmError, EXIT } from '../errors.js';
import { applyLockExists, applyLockHolders, createApplyLock, lockApplyRow } from '../own/apply-lock.js';
import { formatDuration } from '../util/duration.js';
import type { LiveState } from '../model/live-state.js';

export interface ApplyLockOptions {
  /** Milliseconds to wait for the lock. */
  readonly waitMs: number;
  /** Aborted: the lock's connection closes at once. */
  readonly signal?: AbortSignal;
}

/** The apply lock, as the apply holds it. */
export interface ApplyLock {
  /** Whether it is held; false on a database with no lock table yet. */
  held(): boolean;
  /** Creates citus_migrate and the lock table, and takes the lock (waiting as withApplyLock does). */
  create(): Promise<void>;
}

/**
 * Runs fn holding the apply lock when the database has one (else fn may create it); waits at
 * most waitMs for it, onWait saying who holds it.
 */
export async function withApplyLock<T>(
  target: ConnectionTarget,
  opts: ApplyLockOptions,
  onWait: (holder: string) => void,
  fn: (lock: ApplyLock) => Promise<T>,
): Promise<T> {
  return withClient(
    target,
    async (lockDb) => {
      let held = await takeApplyLock(lockDb, opts.waitMs, false, onWait);
      try {
        return await fn({
          held: () => held,
          create: async () => {
            held = await takeApplyLock(lockDb, opts.waitMs, true, onWait);
          },
        });
      } finally {
        if (held) await lockDb.query('ROLLBACK').catch(() => undefined);
      }
    },
    opts.signal,
  );
}

/**
 * Opens the lock's transaction and takes the row; false when there is no lock table and `create`
 * is false. The transaction is never ended by an idle timeout or a statement timeout the role or
 * database sets; its lock waits last waitMs.
 */
async function takeApplyLock(
  db: Queryable,
  waitMs: number,
  create: boolean,
  onWait: (holder: string) => void,
): Promise<boolean> {
  const ms = Math.max(1, Math.round(waitMs));
  for (let attempt = 1; ; attempt++) {
    await db.query(
      `BEGIN; SET LOCAL search_path = pg_catalog, pg_temp; SET LOCAL jit = off; SET LOCAL idle_in_transaction_session_timeout = 0; SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = ${ms}`,
    );
    try {
      if ((await applyLockExists(db)) && (await lockRow(db, ms, onWait))) return true;
      await db.query('ROLLBACK');
      if (!create) return false;
      // No lock table yet, or its row is gone: created (committed, so concurrent applies wait on the same row), then taken.
      if (attempt > 2)
        throw new CmError(
          'citus_migrate.apply_lock has no row to lock, even after inserting it; nothing was done',
          'lock_missing',
        );
      await createApplyLock(db, ms);
    } catch (e) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }
}

/** Takes the row at once, or says who holds it and waits up to waitMs; a wait that runs out is exit 6. */
async function lockRow(db: Queryable, waitMs: number, onWait: (holder: string) => void): Promise<boolean> {
  await db.query('SAVEPOINT apply_lock');
  try {
    return await lockApplyRow(db, true);
  } catch (e) {
    if ((e as { code?: string }).code !== '55P03') throw e;
  }
  await db.query('ROLLBACK TO SAVEPOINT apply_lock');
  onWait(describeHolders(await applyLockHolders(db)));
  try {
    return await lockApplyRow(db, false);
  } catch (e) {
    if ((e as { code?: string }).code !== '55P03') throw e;
  }
  await db.query('ROLLBACK TO SAVEPOINT apply_lock');
  const holders = describeHolders(await applyLockHolders(db));
  throw new CmError(
    `the apply lock (citus_migrate.apply_lock) is still held after ${formatDuration(waitMs)} by ${holders}; nothing was done`,
    'lock_wait',
    EXIT.lockWait,
    { holders },
  );
}

/**
 * Creates and takes the apply lock (the first apply on a database), then reads the catalog again:
 * true when nothing changed since the plan was made. Otherwise another session (even another
 * apply: the one that created the lock may find another took it first) changed the cluster
 * meanwhile: a plan that was not approved or saved is made again (false); one that was goes on
 * when its transaction checks again what it changes and needs (`guarded`: read-guard.ts, which
 * refuses it as stale, naming the change, or runs it when the change is elsewhere, as on any
 * later apply), and is otherwise stale (exit 5, nothing run).
 */
export async function lockLate(
  lock: ApplyLock,
  fingerprint: string,
  read: () => Promise<LiveState>,
  fixed: string | undefined,
  guarded: boolean,
): Promise<boolean> {
  await lock.create();
  if ((await read()).fingerprint === fingerprint) return true;
  if (fixed === undefined) return false;
  if (guarded) return true;
  throw new CmError(
    `stale plan: the cluster changed while this apply, the first on this database, had no lock to hold (another apply ran meanwhile); ${fixed === 'approved' ? 'the plan approved' : fixed} is not what would run now; nothing was run`,
    'stale_plan',
    EXIT.stalePlan,
  );
}
