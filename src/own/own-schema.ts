// Trust in the tool's own schema, citus_migrate. Whoever owns it, or a table in it, decides
// what runs when the tool writes there (a trigger, a rule, a policy): a role that created it
// before the first apply would run its code as the (superuser) role that applies. So an apply
// uses the schema only when current_user owns it and everything in it, and it holds nothing the
// tool did not create, and no other role (but superusers) may write its tables (own-writers.ts);
// readers (plan, history) read only plain tables, locked, with ONLY, and a plan does not trust
// object_state that another role may have written. Every statement on the schema runs with
// search_path pinned to pg_catalog, pg_temp: no function or operator of another schema can stand
// in for pg_catalog's. An apply bounds every wait on these tables by its --lock-timeout.
import { CmError, EXIT } from '../errors.js';
import type pg from 'pg';
import type { Queryable } from '../db/connect.js';
import { describeHolders, relationLockHolders } from '../db/lock-holders.js';
import { formatDuration } from '../util/duration.js';
import { ownWriters, revokeStatements, writerLines } from './own-writers.js';

export const OWN_SCHEMA = 'citus_migrate';

/** The tool's tables (created by migrations/); each must be a plain table. */
const OWN_TABLES = ['applies', 'schema_migrations', 'object_state', 'apply_lock'] as const;
export type OwnTable = (typeof OWN_TABLES)[number];

/**
 * One row per reason not to trust citus_migrate with the applying role's privileges; none when
 * the schema does not exist. Everything pg_catalog-qualified (it runs before search_path is pinned
 * in callers that forget to).
 */
const GUARD_SQL = `
WITH s AS (SELECT n.oid, n.nspowner, n.nspacl FROM pg_catalog.pg_namespace n WHERE n.nspname = $1),
me AS (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = CURRENT_USER),
rel AS (SELECT c.* FROM pg_catalog.pg_class c JOIN s ON c.relnamespace = s.oid)
SELECT 'schema ' || $1 || ' is owned by role ' || pg_catalog.pg_get_userbyid(s.nspowner) AS reason
  FROM s WHERE s.nspowner <> (SELECT oid FROM me)
UNION ALL
SELECT 'role ' || CASE a.grantee WHEN 0 THEN 'PUBLIC' ELSE pg_catalog.pg_get_userbyid(a.grantee) END
    || ' may create objects in schema ' || $1
  FROM s, pg_catalog.aclexplode(s.nspacl) a WHERE a.privilege_type = 'CREATE' AND a.grantee <> s.nspowner
UNION ALL
SELECT 'relation ' || $1 || '.' || c.relname || ' is owned by role ' || pg_catalog.pg_get_userbyid(c.relowner)
  FROM rel c WHERE c.relowner <> (SELECT oid FROM me)
UNION ALL
SELECT $1 || '.' || c.relname || ' is not a plain table (relkind ' || c.relkind::pg_catalog.text || ')'
  FROM rel c WHERE c.relname = ANY ($2::pg_catalog.text[]) AND c.relkind <> 'r'
UNION ALL
SELECT 'row level security is enabled on ' || $1 || '.' || c.relname FROM rel c WHERE c.relrowsecurity
UNION ALL
SELECT 'policy ' || p.polname || ' on ' || $1 || '.' || c.relname
  FROM rel c JOIN pg_catalog.pg_policy p ON p.polrelid = c.oid
UNION ALL
SELECT 'trigger ' || t.tgname || ' on ' || $1 || '.' || c.relname
  FROM rel c JOIN pg_catalog.pg_trigger t ON t.tgrelid = c.oid WHERE NOT t.tgisinternal
UNION ALL
SELECT 'rule ' || r.rulename || ' on ' || $1 || '.' || c.relname
  FROM rel c JOIN pg_catalog.pg_rewrite r ON r.ev_class = c.oid WHERE r.rulename <> '_RETURN'
UNION ALL
SELECT 'table ' || pg_catalog.quote_ident(cn.nspname) || '.' || pg_catalog.quote_ident(ch.relname) || ' inherits from '
    || $1 || '.' || c.relname
  FROM rel c JOIN pg_catalog.pg_inherits i ON i.inhparent = c.oid JOIN pg_catalog.pg_class ch ON ch.oid = i.inhrelid
  JOIN pg_catalog.pg_namespace cn ON cn.oid = ch.relnamespace
UNION ALL
SELECT 'function ' || p.oid::pg_catalog.regprocedure::pg_catalog.text || ' (the tool creates none)'
  FROM s JOIN pg_catalog.pg_proc p ON p.pronamespace = s.oid
UNION ALL
SELECT 'operator ' || o.oid::pg_catalog.regoperator::pg_catalog.text || ' (the tool creates none)'
  FROM s JOIN pg_catalog.pg_operator o ON o.oprnamespace = s.oid
UNION ALL
SELECT 'type ' || $1 || '.' || t.typname || ' (the tool creates none)'
  FROM s JOIN pg_catalog.pg_type t ON t.typnamespace = s.oid
  WHERE t.typrelid = 0 AND NOT EXISTS (SELECT FROM pg_catalog.pg_type e WHERE e.oid = t.typelem AND e.typrelid <> 0)`;

/** Why citus_migrate may not be used by this role to apply (empty: it may, or it does not exist). */
export async function ownSchemaProblems(db: Queryable): Promise<string[]> {
  const r = await db.query<{ reason: string }>(GUARD_SQL, [OWN_SCHEMA, [...OWN_TABLES]]);
  return r.rows.map((row) => row.reason);
}

const WRITE_ALL_DATA =
  "(pg_write_all_data writes every table of every schema, the tool's too: grant such a role INSERT, UPDATE, DELETE on the schemas it loads instead, and ALTER DEFAULT PRIVILEGES for the tables to come.)";

/**
 * Throws, before anything is written, when citus_migrate may not be trusted by the applying role:
 * it holds what the tool did not create, or another role may write its tables (the message names
 * them and the REVOKE statements that end it). Run inside inOwnSchema (search_path pinned, no JIT).
 */
export async function refuseUntrustedSchema(db: Queryable): Promise<void> {
  const problems = await ownSchemaProblems(db);
  const writers = await ownWriters(db, OWN_SCHEMA);
  if (problems.length === 0 && writers.length === 0) return;
  const me = (await db.query<{ me: string }>('SELECT CURRENT_USER::pg_catalog.text AS me')).rows[0]!.me;
  const lines = [...problems, ...writerLines(writers, OWN_SCHEMA)];
  const revokes = revokeStatements(writers, OWN_SCHEMA);
  throw new CmError(
    `refusing to use the tool's schema ${OWN_SCHEMA}: it must be owned by the applying role (${me}), hold only what citus-migrate created, and be written by no other role, but\n${lines.map((p) => `  ${p}`).join('\n')}\n${
      problems.length > 0
        ? `its owner's code would run with this role's privileges. Nothing was run. Inspect it, then drop it (DROP SCHEMA ${OWN_SCHEMA} CASCADE, losing the recorded history) or give it and its tables to ${me} (ALTER SCHEMA/TABLE … OWNER TO) and remove what is listed.`
        : `a role that may write them could forge what the tool recorded (object_state decides which SQL definitions a plan takes as unchanged) or hold every apply off. Nothing was run.`
    }${revokes.length > 0 ? ` Take the privileges back, as a superuser:\n${revokes.map((r) => `  ${r}`).join('\n')}` : ''}${
      writers.some((w) => w.role === 'pg_write_all_data' || w.via.includes('pg_write_all_data'))
        ? `\n${WRITE_ALL_DATA}`
        : ''
    }`,
    'history_schema_untrusted',
    EXIT.error,
    { problems: lines, revoke: revokes },
  );
}

/**
 * Why a reader should not trust what citus_migrate holds (no reasons: it may), and the REVOKE
 * statements that would end it. Its schema and tables must be owned by this role or a superuser,
 * and no other role may write them. Run inside inOwnSchema.
 */
export async function untrustedState(db: Queryable): Promise<{ reasons: string[]; revoke: string[] }> {
  const owners = await db.query<{ reason: string }>(
    `SELECT 'schema ' || n.nspname || ' is owned by role ' || r.rolname::pg_catalog.text AS reason
    FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r ON r.oid = n.nspowner
    WHERE n.nspname = $1 AND NOT r.rolsuper AND r.rolname <> CURRENT_USER
    UNION ALL
    SELECT 'relation ' || n.nspname || '.' || c.relname || ' is owned by role ' || r.rolname::pg_catalog.text
    FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_catalog.pg_roles r ON r.oid = c.relowner
    WHERE n.nspname = $1 AND c.relname = ANY ($2::pg_catalog.text[]) AND NOT r.rolsuper AND r.rolname <> CURRENT_USER`,
    [OWN_SCHEMA, [...OWN_TABLES]],
  );
  const writers = await ownWriters(db, OWN_SCHEMA);
  return {
    reasons: [
      ...owners.rows.map((r) => `${r.reason}, neither this role nor a superuser`),
      ...writerLines(writers, OWN_SCHEMA),
    ],
    revoke: revokeStatements(writers, OWN_SCHEMA),
  };
}

/** How long the tool's statements on its own tables may wait for a lock (apply's --lock-timeout). */
export interface OwnWait {
  readonly lockTimeoutMs: number;
}

/** A statement on the tool's own tables waited longer than the apply's --lock-timeout. */
export class OwnStateLockTimeout extends CmError {
  constructor(
    readonly what: string,
    readonly waitedMs: number,
    readonly holders: string,
  ) {
    super(
      `--lock-timeout (${formatDuration(waitedMs)}) ran out while ${what}: a table of ${OWN_SCHEMA} is locked by ${holders}`,
      'own_state_lock_timeout',
      EXIT.lockWait,
      { what, waitedMs, holders },
    );
  }
}

/**
 * Runs fn in a transaction whose search_path is pg_catalog, pg_temp (the tool's statements name
 * citus_migrate's tables in full; nothing else may resolve a function or an operator), without
 * JIT (its statements are small). With `wait`, every lock wait is bounded by it: a lock_timeout
 * becomes an OwnStateLockTimeout that says what was being done and who holds the lock.
 */
export async function inOwnSchema<T>(
  db: Queryable,
  fn: () => Promise<T>,
  opts: { wait?: OwnWait | undefined; what?: string } = {},
): Promise<T> {
  const timeout = opts.wait ? `; SET LOCAL lock_timeout = ${Math.max(0, Math.round(opts.wait.lockTimeoutMs))}` : '';
  // Its tables are heap tables in the default tablespace whatever the database's defaults say (a
  // columnar default_table_access_method would make the history tables columnar).
  await db.query(
    `BEGIN; SET LOCAL search_path = pg_catalog, pg_temp; SET LOCAL jit = off; SET LOCAL default_table_access_method = 'heap'; SET LOCAL default_tablespace = ''${timeout}`,
  );
  try {
    const out = await fn();
    await db.query('COMMIT');
    return out;
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    if (opts.wait && (e as { code?: string }).code === '55P03')
      throw new OwnStateLockTimeout(
        opts.what ?? `writing to ${OWN_SCHEMA}`,
        opts.wait.lockTimeoutMs,
        // Not the apply lock: this apply's own lock connection holds it.
        describeHolders(
          (await relationLockHolders(db, OWN_SCHEMA)).filter(
            (h) => !/^citus_migrate\.apply_lock/.test(h.relation ?? ''),
          ),
        ),
      );
    throw e;
  }
}

/**
 * Reads one of the tool's tables as a reader that need not own it: locked first (so it cannot be
 * swapped for a view or get row security between the check and the read), then required to be a
 * plain table without row security, then read with `sql` (which should say FROM ONLY).
 */
export async function readOwnTable<R extends pg.QueryResultRow>(
  db: Queryable,
  table: OwnTable,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  return inOwnSchema(db, () => readLockedOwnTable<R>(db, table, sql, values));
}

/** readOwnTable inside a transaction inOwnSchema opened: the table stays locked until it ends. */
export async function readLockedOwnTable<R extends pg.QueryResultRow>(
  db: Queryable,
  table: OwnTable,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  await db.query(`LOCK TABLE ONLY ${OWN_SCHEMA}.${table} IN ACCESS SHARE MODE`);
  const r = await db.query<{ plain: boolean }>(
    `SELECT c.relkind = 'r' AND NOT c.relrowsecurity AS plain FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
    [OWN_SCHEMA, table],
  );
  if (!r.rows[0]?.plain)
    throw new CmError(
      `refusing to read ${OWN_SCHEMA}.${table}: it is not a plain table, or has row level security (its owner's code would run as this role)`,
      'history_schema_untrusted',
      EXIT.error,
    );
  return (await db.query<R>(sql, values)).rows;
}
