// A session that holds citus-migrate's apply lock, as another apply would: the lock table is
// created by the tool's own migration (migrations/004_apply_lock.sql), then the table is locked as
// an apply locks it until the session ends.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { TestDb } from './db.js';

const LOCK_MIGRATION = readFileSync(new URL('../../migrations/004_apply_lock.sql', import.meta.url), 'utf8');

/** Connects as `db.url`'s user, creates the lock if needed and holds it; end() releases it. */
export async function holdApplyLock(db: TestDb, opts: { applicationName?: string } = {}): Promise<pg.Client> {
  const c = new pg.Client({
    connectionString: db.url,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
  });
  await c.connect();
  await c.query(`CREATE SCHEMA IF NOT EXISTS citus_migrate; ${LOCK_MIGRATION}`);
  await c.query('BEGIN; LOCK TABLE ONLY citus_migrate.apply_lock IN SHARE UPDATE EXCLUSIVE MODE');
  return c;
}
