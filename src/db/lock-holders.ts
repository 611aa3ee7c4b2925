// Who holds a lock the tool waits for: other sessions' granted locks with their role,
// application, backend pid and since when, so a message names the holder instead of guessing
// ("another apply"). Read from pg_locks and pg_stat_activity; a read that fails says nothing.
import type { Queryable } from './connect.js';

/** A session that holds a lock, as pg_stat_activity describes it. */
export interface LockHolder {
  readonly pid: number;
  readonly role: string;
  readonly app: string;
  /** When its transaction started (else when it connected), to the second. */
  readonly since: string;
  readonly inTransaction: boolean;
  readonly state: string;
  /** The relation locked and the mode, for relation locks. */
  readonly relation?: string;
  readonly mode?: string;
}

/** The columns of a LockHolder, from pg_stat_activity `a`. */
export const HOLDER_COLUMNS = `a.pid, COALESCE(a.usename::pg_catalog.text, '?') AS role,
  COALESCE(a.application_name, '') AS app, a.xact_start IS NOT NULL AS "inTransaction",
  pg_catalog.date_trunc('second', COALESCE(a.xact_start, a.backend_start))::pg_catalog.text AS since,
  COALESCE(a.state, '?') AS state`;

// Operators spelled OPERATOR(pg_catalog.…): this may run on a session whose search_path is the
// role's, where another schema's "=" could otherwise stand in for pg_catalog's.
const EQ = 'OPERATOR(pg_catalog.=)';
const RELATION_HOLDERS = `
SELECT ${HOLDER_COLUMNS},
  pg_catalog.format('%I.%I', n.nspname, c.relname) AS relation, l.mode
FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a ON a.pid ${EQ} l.pid
JOIN pg_catalog.pg_class c ON c.oid ${EQ} l.relation JOIN pg_catalog.pg_namespace n ON n.oid ${EQ} c.relnamespace
WHERE l.locktype ${EQ} 'relation' AND l.granted AND l.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
  AND l.database ${EQ} (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname ${EQ} pg_catalog.current_database())
  AND ($1::pg_catalog.name IS NULL OR n.nspname ${EQ} $1::pg_catalog.name)
  AND ($2::pg_catalog.text IS NULL OR l.mode ${EQ} $2::pg_catalog.text)
ORDER BY a.pid, relation`;

/**
 * Other sessions' granted locks on the relations of `schema` (any mode), or, without a schema,
 * their ACCESS EXCLUSIVE locks anywhere in this database (what holds up a catalog read).
 */
export async function relationLockHolders(db: Queryable, schema?: string): Promise<LockHolder[]> {
  return db
    .query<LockHolder>(RELATION_HOLDERS, [schema ?? null, schema === undefined ? 'AccessExclusiveLock' : null])
    .then((r) => r.rows)
    .catch(() => []);
}

/** "backend 123 (role etl, application "psql", in a transaction since …, idle in transaction; AccessExclusiveLock on s.t)". */
export function describeHolder(h: LockHolder, locks: readonly LockHolder[] = [h]): string {
  const held = locks.filter((l) => l.relation).map((l) => `${l.mode ?? 'a lock'} on ${l.relation}`);
  return `backend ${h.pid} (role ${h.role}, application ${h.app === '' ? '(none)' : JSON.stringify(h.app)}, ${h.inTransaction ? 'in a transaction' : 'connected'} since ${h.since}, ${h.state}${held.length > 0 ? `; ${held.join(', ')}` : ''})`;
}

/** The holders, a session once with all its locks: "backend … and backend …"; "a session not found" when none was. */
export function describeHolders(holders: readonly LockHolder[]): string {
  const each = describeEachHolder(holders);
  return each.length === 0 ? 'a session not found' : each.join(' and ');
}

/** Each session once, with all its locks, described as describeHolder does. */
export function describeEachHolder(holders: readonly LockHolder[]): string[] {
  const byPid = new Map<number, LockHolder[]>();
  for (const h of holders) byPid.set(h.pid, [...(byPid.get(h.pid) ?? []), h]);
  return [...byPid.values()].map((locks) => describeHolder(locks[0]!, locks));
}
