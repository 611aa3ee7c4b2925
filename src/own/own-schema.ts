// Trust in the tool's own schema, citus_migrate. Whoever owns it, or a table in it, decides
// what runs when the tool writes there (a trigger, a rule, a policy): a role that created it
// before the first apply would run its code as the (superuser) role that applies. So an apply
// uses the schema only when current_user owns it and everything in it, and it holds nothing the
// tool did not create; readers (plan, history) read only plain tables, locked, with ONLY. Every
// statement on the schema runs with search_path pinned to pg_catalog, pg_temp: no function or
// operator of another schema can stand in for pg_catalog's.
import { CmError, EXIT } from '../errors.js';
import type pg from 'pg';
import type { Queryable } from '../db/connect.js';

export const OWN_SCHEMA = 'citus_migrate';

/** The tool's tables (created by migrations/); each must be a plain table. */
const OWN_TABLES = ['applies', 'schema_migrations', 'object_state'] as const;
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
SELECT 'role ' || CASE a.grantee WHEN 0 THEN 'PUBLIC' ELSE pg_catalog.pg_get_userbyid(a.grantee) END
    || ' may create triggers on ' || $1 || '.' || c.relname
  FROM rel c, pg_catalog.aclexplode(c.relacl) a WHERE a.privilege_type = 'TRIGGER' AND a.grantee <> c.relowner
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

/** Throws, before anything is written, when citus_migrate may not be trusted by the applying role. */
export async function refuseUntrustedSchema(db: Queryable): Promise<void> {
  const problems = await ownSchemaProblems(db);
  if (problems.length === 0) return;
  const me = (await db.query<{ me: string }>('SELECT CURRENT_USER::pg_catalog.text AS me')).rows[0]!.me;
  throw new CmError(
    `refusing to use the tool's schema ${OWN_SCHEMA}: it must be owned by the applying role (${me}) and hold only what citus-migrate created, but\n${problems.map((p) => `  ${p}`).join('\n')}\nits owner's code would run with this role's privileges. Nothing was run. Inspect it, then drop it (DROP SCHEMA ${OWN_SCHEMA} CASCADE, losing the recorded history) or give it and its tables to ${me} (ALTER SCHEMA/TABLE … OWNER TO) and remove what is listed.`,
    'history_schema_untrusted',
    EXIT.error,
    { problems },
  );
}

/**
 * Runs fn in a transaction whose search_path is pg_catalog, pg_temp (the tool's statements name
 * citus_migrate's tables in full; nothing else may resolve a function or an operator), and whose
 * tables are heap tables in the default tablespace whatever the database's defaults say (a
 * columnar default_table_access_method would make the history tables columnar).
 */
export async function inOwnSchema<T>(db: Queryable, fn: () => Promise<T>): Promise<T> {
  await db.query(
    "BEGIN; SET LOCAL search_path = pg_catalog, pg_temp; SET LOCAL default_table_access_method = 'heap'; SET LOCAL default_tablespace = ''",
  );
  try {
    const out = await fn();
    await db.query('COMMIT');
    return out;
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
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
  return inOwnSchema(db, async () => {
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
  });
}
