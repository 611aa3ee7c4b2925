// The apply lock's table, citus_migrate.apply_lock (migrations/004_apply_lock.sql), locked IN
// SHARE UPDATE EXCLUSIVE MODE by the apply that runs: a table lock, which gives its transaction no
// transaction id (a row lock, FOR UPDATE, would: create_distributed_table_concurrently's
// replication slot then waits for the apply's own lock transaction to end, and the apply hangs).
// The mode conflicts with itself, not with ACCESS SHARE (readers of the history) nor with ROW
// EXCLUSIVE (the tool's migration inserting the table's row again on the apply's own connection). Taking it needs
// UPDATE, DELETE or TRUNCATE on the table, granted to nobody (a role that has them is refused by
// own-schema.ts), so only its owner and superusers can, unlike an advisory lock key, which any role
// that may connect can hold. A database owner may still hold it off with ANALYZE in an open
// transaction, as it may any table the plan changes: the wait is bounded
// by --wait and names that session. These statements run in the transaction the lock lives in,
// on a connection of its own (apply/lock.ts).
import type { Queryable } from '../db/connect.js';
import { relationLockHolders, type LockHolder } from '../db/lock-holders.js';
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
 * In the lock's transaction: takes the table's lock (see the file comment) and refuses a schema
 * that may not be trusted. `nowait`: fails at once (55P03) when another session holds a lock in
 * the way; else waits as long as the transaction's lock_timeout. False: the table's row is missing
 * (the caller creates it again).
 */
export async function lockApplyRow(db: Queryable, nowait: boolean): Promise<boolean> {
  await db.query(`LOCK TABLE ONLY ${OWN_SCHEMA}.apply_lock IN SHARE UPDATE EXCLUSIVE MODE${nowait ? ' NOWAIT' : ''}`);
  await refuseUntrustedSchema(db);
  const r = await db.query(`SELECT FROM ONLY ${OWN_SCHEMA}.apply_lock`);
  return (r.rowCount ?? 0) > 0;
}

/** Lock modes that keep SHARE UPDATE EXCLUSIVE from being granted. */
const IN_THE_WAY = /^(ShareUpdateExclusive|Share|ShareRowExclusive|Exclusive|AccessExclusive)Lock$/;

/** Who holds the apply lock: the sessions holding a lock on its table that keeps it from being taken. */
export async function applyLockHolders(db: Queryable): Promise<LockHolder[]> {
  return (await relationLockHolders(db, OWN_SCHEMA)).filter(
    (h) => h.relation === `${OWN_SCHEMA}.apply_lock` && IN_THE_WAY.test(h.mode ?? ''),
  );
}
