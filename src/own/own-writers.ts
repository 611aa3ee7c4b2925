// Who, besides the owner and superusers, may write the tool's own tables. What citus_migrate
// holds decides what a plan trusts (object_state says a hand-written definition is unchanged) and
// what the history says; a role that may write it (a common ETL grant of pg_write_all_data, a
// GRANT on a table or one of its columns, PUBLIC, membership in the owner) could make a plan hide
// a change. PostgreSQL's own privilege functions are the judge (has_table_privilege and
// has_any_column_privilege, membership and inheritance included), asked for every role that can
// act: PUBLIC, the roles that log in and the roles granted to others, among those a privilege can
// come from at all (the owner's members, the grantees' members, the members of
// pg_write_all_data and pg_maintain, the database owner through pg_database_owner).
import type { Queryable } from '../db/connect.js';
import { quoteIdent } from '../sql/quote.js';

/** One role that may change one of the tool's relations. */
export interface OwnWriter {
  /** The role's name, or PUBLIC. */
  readonly role: string;
  readonly relation: string;
  readonly sequence: boolean;
  /** What it may do: INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER, MAINTAIN (a sequence: UPDATE, setval). */
  readonly privileges: readonly string[];
  /** Granted to the role itself: on the relation, or on one of its columns; else false. */
  readonly direct: 'table' | 'column' | false;
  /** The roles it is a member of that hold some of these privileges. */
  readonly via: readonly string[];
  /** The roles granted this role. */
  readonly members: readonly string[];
}

// MAINTAIN (PostgreSQL 17) lets a role LOCK the table in any mode; it is asked only where it exists
// (CASE evaluates in order; has_table_privilege is not folded at plan time).
const WRITERS_SQL = `
WITH RECURSIVE rel AS (
  SELECT c.oid, c.relname, c.relkind, c.relowner, c.relacl FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'S')
),
src AS (
  SELECT rel.relowner AS oid FROM rel
  UNION SELECT x.grantee FROM rel, pg_catalog.aclexplode(rel.relacl) x
  UNION SELECT x.grantee FROM rel JOIN pg_catalog.pg_attribute a ON a.attrelid = rel.oid, pg_catalog.aclexplode(a.attacl) x
  UNION SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname IN ('pg_write_all_data', 'pg_maintain')
),
edge(roleid, member) AS (
  SELECT m.roleid, m.member FROM pg_catalog.pg_auth_members m
  UNION ALL
  SELECT r.oid, d.datdba FROM pg_catalog.pg_roles r, pg_catalog.pg_database d
  WHERE r.rolname = 'pg_database_owner' AND d.datname = pg_catalog.current_database()
),
reach(oid) AS (SELECT src.oid FROM src UNION SELECT e.member FROM reach JOIN edge e ON e.roleid = reach.oid),
who AS (
  SELECT 0::pg_catalog.oid AS oid, 'PUBLIC'::pg_catalog.text AS name
  UNION ALL
  SELECT r.oid, r.rolname::pg_catalog.text FROM pg_catalog.pg_roles r JOIN reach ON reach.oid = r.oid
  WHERE NOT r.rolsuper AND (r.rolcanlogin OR EXISTS (SELECT FROM edge e WHERE e.roleid = r.oid))
),
priv(p, per_column) AS (VALUES ('INSERT', true), ('UPDATE', true), ('REFERENCES', true), ('DELETE', false),
  ('TRUNCATE', false), ('TRIGGER', false), ('MAINTAIN', false)),
has AS (
  SELECT rel.oid AS relid, rel.relname, rel.relkind, w.oid AS roleid, w.name, priv.p
  FROM rel CROSS JOIN who w CROSS JOIN priv
  WHERE w.oid <> rel.relowner AND CASE
    WHEN rel.relkind = 'S' THEN priv.p = 'UPDATE' AND CASE w.oid
      WHEN 0 THEN pg_catalog.has_sequence_privilege('public', rel.oid, 'UPDATE')
      ELSE pg_catalog.has_sequence_privilege(w.oid, rel.oid, 'UPDATE') END
    WHEN priv.p = 'MAINTAIN' AND pg_catalog.current_setting('server_version_num')::pg_catalog.int4 < 170000 THEN false
    WHEN priv.per_column THEN CASE w.oid
      WHEN 0 THEN pg_catalog.has_any_column_privilege('public', rel.oid, priv.p)
      ELSE pg_catalog.has_any_column_privilege(w.oid, rel.oid, priv.p) END
    ELSE CASE w.oid
      WHEN 0 THEN pg_catalog.has_table_privilege('public', rel.oid, priv.p)
      ELSE pg_catalog.has_table_privilege(w.oid, rel.oid, priv.p) END
  END
)
SELECT h.name AS role, h.relname AS relation, h.relkind = 'S' AS sequence,
  pg_catalog.array_agg(h.p ORDER BY pg_catalog.array_position(
    ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER', 'MAINTAIN'], h.p)) AS privileges,
  CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) x
      WHERE c.oid = h.relid AND x.grantee = h.roleid AND x.privilege_type <> 'SELECT') THEN 'table'
    WHEN EXISTS (SELECT FROM pg_catalog.pg_attribute a, pg_catalog.aclexplode(a.attacl) x
      WHERE a.attrelid = h.relid AND x.grantee = h.roleid AND x.privilege_type <> 'SELECT') THEN 'column'
    ELSE 'false' END AS direct,
  ARRAY(SELECT g.rolname::pg_catalog.text FROM edge e JOIN pg_catalog.pg_roles g ON g.oid = e.roleid
    WHERE e.member = h.roleid AND CASE WHEN h.relkind = 'S' THEN pg_catalog.has_sequence_privilege(g.oid, h.relid, 'UPDATE')
      ELSE pg_catalog.has_any_column_privilege(g.oid, h.relid, 'INSERT, UPDATE, REFERENCES')
        OR pg_catalog.has_table_privilege(g.oid, h.relid, 'DELETE, TRUNCATE, TRIGGER') END
    ORDER BY 1) AS via,
  ARRAY(SELECT r.rolname::pg_catalog.text FROM edge e JOIN pg_catalog.pg_roles r ON r.oid = e.member
    WHERE e.roleid = h.roleid ORDER BY 1) AS members
FROM has h
-- What PUBLIC may do, every role may: said once, for PUBLIC.
WHERE h.roleid = 0 OR NOT EXISTS (SELECT FROM has pu WHERE pu.roleid = 0 AND pu.relid = h.relid AND pu.p = h.p)
GROUP BY h.relid, h.relname, h.relkind, h.roleid, h.name
ORDER BY h.name COLLATE pg_catalog."C", h.relname COLLATE pg_catalog."C"`;

/** Every role but the owners and superusers that may change a relation of `schema`. */
export async function ownWriters(db: Queryable, schema: string): Promise<OwnWriter[]> {
  const rows = (await db.query<Omit<OwnWriter, 'direct'> & { direct: string }>(WRITERS_SQL, [schema])).rows;
  return rows.map((r) => ({ ...r, direct: r.direct === 'table' || r.direct === 'column' ? r.direct : false }));
}

const who = (role: string): string => (role === 'PUBLIC' ? 'PUBLIC' : `role ${role}`);
const grantee = (role: string): string => (role === 'PUBLIC' ? 'PUBLIC' : quoteIdent(role));

/** How it came to hold them: "granted on it", "as a member of pg_write_all_data", "granted to etl". */
function how(w: OwnWriter): string {
  return [
    ...(w.direct
      ? [`granted ${w.role === 'PUBLIC' ? 'to PUBLIC ' : ''}on ${w.direct === 'table' ? 'the table' : 'its columns'}`]
      : []),
    ...(w.via.length > 0 ? [`as a member of ${w.via.join(', ')}`] : []),
    ...(!w.direct && w.via.length === 0 && w.members.length > 0 ? [`and is granted to ${w.members.join(', ')}`] : []),
  ].join('; ');
}

/** One line per role and way it came to its privileges: "role etl holds INSERT, UPDATE on s.a, s.b (as a member of …)". */
export function writerLines(writers: readonly OwnWriter[], schema: string): string[] {
  const groups = new Map<string, { head: string; relations: string[]; tail: string }>();
  for (const w of writers) {
    const head = `${who(w.role)} holds ${w.privileges.join(', ')} on`;
    const tail = how(w);
    const key = `${head}\0${tail}`;
    const g = groups.get(key) ?? { head, relations: [], tail };
    g.relations.push(`${schema}.${w.relation}`);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => `${g.head} ${g.relations.join(', ')}${g.tail ? ` (${g.tail})` : ''}`);
}

/** The statements that take these privileges away, each once; a role's memberships in one REVOKE. */
export function revokeStatements(writers: readonly OwnWriter[], schema: string): string[] {
  const grants = new Set<string>();
  const memberships = new Map<string, Set<string>>();
  const revokeRole = (role: string, from: readonly string[]): void => {
    // The database owner is pg_database_owner's member by owning the database, not by a GRANT.
    if (role === 'pg_database_owner') return;
    const set = memberships.get(role) ?? new Set<string>();
    for (const m of from) set.add(m);
    memberships.set(role, set);
  };
  for (const w of writers) {
    const on = `${w.sequence ? 'SEQUENCE' : 'TABLE'} ${quoteIdent(schema)}.${quoteIdent(w.relation)}`;
    if (w.direct) grants.add(`REVOKE ${w.privileges.join(', ')} ON ${on} FROM ${grantee(w.role)};`);
    for (const g of w.via) revokeRole(g, [w.role]);
    if (!w.direct && w.via.length === 0) revokeRole(w.role, w.members);
  }
  return [
    ...grants,
    ...[...memberships]
      .filter(([, from]) => from.size > 0)
      .map(([role, from]) => `REVOKE ${quoteIdent(role)} FROM ${[...from].map(quoteIdent).join(', ')};`),
  ];
}
