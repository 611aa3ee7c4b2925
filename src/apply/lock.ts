// A session advisory lock keyed on the database serialises applies: a second apply waits up to
// --wait for it, then fails with who holds it.
import { CmError, EXIT } from '../errors.js';
import type { Queryable } from '../db/connect.js';

const KEY = "pg_catalog.hashtext('citus-migrate'), pg_catalog.hashtext(pg_catalog.current_database())";

/** Runs fn while holding the apply lock; waits at most waitMs for it. */
export async function withApplyLock<T>(
  db: Queryable,
  waitMs: number,
  onWait: (holder: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const got = await db.query<{ ok: boolean }>(`SELECT pg_catalog.pg_try_advisory_lock(${KEY}) AS ok`);
  if (!got.rows[0]!.ok) {
    onWait(await holder(db));
    try {
      // Advisory lock waits obey lock_timeout.
      await db.query(`SET lock_timeout = ${Math.max(1, Math.round(waitMs))}`);
      await db.query(`SELECT pg_catalog.pg_advisory_lock(${KEY})`);
    } catch (e) {
      if ((e as { code?: string }).code === '55P03') {
        throw new CmError(
          `another apply still holds the lock after ${Math.round(waitMs / 1000)}s (${await holder(db)}); nothing was done`,
          'lock_wait',
          EXIT.lockWait,
        );
      }
      throw e;
    } finally {
      await db.query('RESET lock_timeout').catch(() => undefined);
    }
  }
  try {
    return await fn();
  } finally {
    await db.query(`SELECT pg_catalog.pg_advisory_unlock(${KEY})`).catch(() => undefined);
  }
}

async function holder(db: Queryable): Promise<string> {
  const r = await db
    .query<{ pid: number; app: string; since: string }>(
      `SELECT a.pid, a.application_name AS app, a.backend_start::pg_catalog.text AS since
    FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.granted AND l.classid = pg_catalog.hashtext('citus-migrate')::pg_catalog.oid::int::pg_catalog.oid
      AND l.objid = pg_catalog.hashtext(pg_catalog.current_database())::pg_catalog.oid::int::pg_catalog.oid LIMIT 1`,
    )
    .catch(() => ({ rows: [] as { pid: number; app: string; since: string }[] }));
  const h = r.rows[0];
  return h
    ? `held by backend ${h.pid}, ${h.app || 'unknown application'}, connected since ${h.since}`
    : 'holder unknown';
}
