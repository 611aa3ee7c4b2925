// The apply lock's table, citus_migrate.apply_lock (migrations/004_apply_lock.sql): one row, held
// FOR UPDATE by the apply that runs. Only its owner and superusers may lock that row (FOR UPDATE
// needs UPDATE, granted to nobody; a role that may is refused by own-schema.ts), and no lock a
// lower role can take on the table conflicts with it (a database owner's ANALYZE takes SHARE
// UPDATE EXCLUSIVE, which ROW SHARE does not wait for). These statements run in the transaction
// the lock lives in, on a connection of its own (apply/lock.ts).
import type { Queryable } from '../db/connect.js';
import { HOLDER_COLUMNS, relationLockHolders, type LockHolder } from '../db/lock-holders.js';
import { historyMigration } from './history.js';
import { inOwnSchema, OWN_SCHEMA, refuseUntrustedSchema } from './own-schema.js';

const MIGRATION = '004_apply_lock.sql';

/** Whether citus_migrate.apply_lock exists (the first apply on a database creates it). */
export async function applyLockExists(db: Queryable): Promise<boolean> {
  const r = await db.query(
    `SELECT FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = $1 AND c.relname = 'apply_lock'`,
    [OWN_SCHEMA],
  );
  return (r.rowCount ?? 0) > 0;
}

/**
 * Creates citus_migrate and its lock table (with its row) if they do not exist, committed at once
 * so that concurrent applies all find the same row to wait on; refused, as ensureHistorySchema
 * does, when the schema may not be trusted. Two first applies may race to create it: the loser's
 * CREATE … IF NOT EXISTS fails on the unique index and, retried, finds it.
 */
export async function createApplyLock(db: Queryable, lockTimeoutMs: number): Promise<void> {
  const sql = historyMigration(MIGRATION).sql;
  for (let attempt = 1; ; attempt++) {
    try {
      await inOwnSchema(
        db,
        async () => {
          // The tool's bookkeeping is the coordinator's own (see ensureHistorySchema).
          await db.query('SET LOCAL citus.enable_ddl_propagation TO off');
          await refuseUntrustedSchema(db);
          await db.query(`CREATE SCHEMA IF NOT EXISTS ${OWN_SCHEMA}`);
          await db.query(sql);
          await refuseUntrustedSchema(db);
        },
        { wait: { lockTimeoutMs }, what: `creating the apply lock, ${OWN_SCHEMA}.apply_lock` },
      );
      return;
    } catch (e) {
      const code = (e as { code?: string }).code;
      // unique_violation, duplicate_schema, duplicate_table: another apply created it meanwhile.
      if (attempt >= 3 || (code !== '23505' && code !== '42P06' && code !== '42P07')) throw e;
    }
  }
}

/**
 * In the lock's transaction: locks the table against being swapped (ACCESS SHARE, as readers do),
 * refuses a schema that may not be trusted, then takes the row. `nowait`: fails at once (55P03)
 * when another session holds it; else waits as long as the transaction's lock_timeout. False: the
 * row is missing (the caller creates it again).
 */
export async function lockApplyRow(db: Queryable, nowait: boolean): Promise<boolean> {
  await db.query(`LOCK TABLE ONLY ${OWN_SCHEMA}.apply_lock IN ACCESS SHARE MODE${nowait ? ' NOWAIT' : ''}`);
  await refuseUntrustedSchema(db);
  const r = await db.query(`SELECT FROM ONLY ${OWN_SCHEMA}.apply_lock FOR UPDATE${nowait ? ' NOWAIT' : ''}`);
  return (r.rowCount ?? 0) > 0;
}

/**
 * Who holds the apply lock: the session whose transaction locked the row (its xmax), and any
 * session holding a lock on the table that keeps the row from being locked.
 */
export async function applyLockHolders(db: Queryable): Promise<LockHolder[]> {
  const row = await db
    .query<LockHolder>(
      `SELECT ${HOLDER_COLUMNS} FROM pg_catalog.pg_stat_activity a
      WHERE a.pid <> pg_catalog.pg_backend_pid() AND a.pid IN (SELECT l.pid FROM pg_catalog.pg_locks l, ONLY ${OWN_SCHEMA}.apply_lock t
        WHERE l.locktype = 'transactionid' AND l.granted AND l.transactionid = t.xmax)`,
    )
    .then((r) => r.rows)
    .catch(() => []);
  const table = (await relationLockHolders(db, OWN_SCHEMA)).filter(
    (h) => h.relation === `${OWN_SCHEMA}.apply_lock` && /^(Exclusive|AccessExclusive)Lock$/.test(h.mode ?? ''),
  );
  return [...row, ...table.filter((h) => !row.some((r) => r.pid === h.pid))];
}
