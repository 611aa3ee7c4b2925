// The part of the catalog query that reads privileges: every ACL entry (aclexplode) of the user's
// relations, columns, schemas, routines, types and foreign servers, the owner's own too (what an
// owner revoked from itself), as rows [type, name, parent, grantee, privilege, grantable, column,
// schema, owner]; a row without a grantee only says that the object's ACL is set (PUBLIC's
// defaults are then explicit) and names its owner. objects/privileges.ts turns
// them into objects. Uses the catalog query's `ns` and `anyrel` CTEs; set-wise, ACLs only.

import { argTypes, notExt, qn } from './catalog-fragments.js';
import { NOT_ME } from './catalog-owners.js';

const grantee = (oid: string): string =>
  `CASE WHEN ${oid} = 0::pg_catalog.oid THEN 'PUBLIC' ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(${oid})) END`;

/** The owner's name on the row that says an ACL is set (no grantee), else NULL. */
const ownerOf = (grantee: string, owner: string): string =>
  `CASE WHEN ${grantee} IS NULL THEN pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(${owner})) END`;

/** The `acls` member of the catalog document. */
export const ACLS_JSON = `
  'acls', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_array(a.type, a.name, a.parent, a.grantee, a.priv, a.grantable, a.col, a.sch, a.own)), '[]') FROM (
    -- Relations (anyrel: tables, views, materialized views) and sequences; a sequence a serial column owns goes with its table.
    SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, ${qn('ns.nspname', 'c.relname')},
      CASE WHEN c.relkind <> 'S' THEN 'relation ' || ${qn('ns.nspname', 'c.relname')}
        WHEN own.refobjid IS NOT NULL THEN 'relation ' || ${qn('ons.nspname', 'oc.relname')} ELSE 'sequence ' || ${qn('ns.nspname', 'c.relname')} END,
      CASE WHEN x.grantee IS NULL THEN NULL ELSE ${grantee('x.grantee')} END, x.privilege_type, x.is_grantable, NULL::pg_catalog.text, NULL::pg_catalog.text, ${ownerOf('x.grantee', 'c.relowner')}
    FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
    LEFT JOIN pg_catalog.pg_depend own ON c.relkind = 'S' AND own.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid AND own.objid = c.oid
      AND own.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid AND own.deptype IN ('a', 'i')
    LEFT JOIN pg_catalog.pg_class oc ON oc.oid = own.refobjid LEFT JOIN pg_catalog.pg_namespace ons ON ons.oid = oc.relnamespace
    LEFT JOIN LATERAL (SELECT e.grantee, e.privilege_type, e.is_grantable FROM pg_catalog.aclexplode(c.relacl) e
      UNION ALL SELECT NULL, NULL, NULL) x ON true
    WHERE c.relacl IS NOT NULL AND (c.oid IN (SELECT oid FROM anyrel) OR c.relkind = 'S') AND ${notExt('pg_catalog.pg_class', 'c.oid')}
    UNION ALL
    SELECT 'TABLE', ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')}, ${grantee('x.grantee')}, x.privilege_type, x.is_grantable, att.attname, NULL, NULL
    FROM pg_catalog.pg_attribute att JOIN anyrel r ON r.oid = att.attrelid JOIN pg_catalog.pg_class c ON c.oid = r.oid
    CROSS JOIN LATERAL pg_catalog.aclexplode(att.attacl) x
    WHERE att.attacl IS NOT NULL AND att.attnum > 0 AND NOT att.attisdropped AND x.grantee <> c.relowner
    UNION ALL
    SELECT 'SCHEMA', pg_catalog.quote_ident(n.nspname), NULL, CASE WHEN x.grantee IS NULL THEN NULL ELSE ${grantee('x.grantee')} END, x.privilege_type, x.is_grantable, NULL, NULL, ${ownerOf('x.grantee', 'n.nspowner')}
    FROM ns JOIN pg_catalog.pg_namespace n ON n.oid = ns.oid
    LEFT JOIN LATERAL (SELECT e.grantee, e.privilege_type, e.is_grantable FROM pg_catalog.aclexplode(n.nspacl) e
      UNION ALL SELECT NULL, NULL, NULL) x ON true
    WHERE n.nspacl IS NOT NULL
    UNION ALL
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END, ${qn('ns.nspname', 'p.proname')} || '(' || ${argTypes('p')} || ')',
      'routine ' || ${qn('ns.nspname', 'p.proname')}, CASE WHEN x.grantee IS NULL THEN NULL ELSE ${grantee('x.grantee')} END, x.privilege_type, x.is_grantable, NULL, NULL, ${ownerOf('x.grantee', 'p.proowner')}
    FROM pg_catalog.pg_proc p JOIN ns ON ns.oid = p.pronamespace
    LEFT JOIN LATERAL (SELECT e.grantee, e.privilege_type, e.is_grantable FROM pg_catalog.aclexplode(p.proacl) e
      UNION ALL SELECT NULL, NULL, NULL) x ON true
    WHERE p.proacl IS NOT NULL AND p.prokind IN ('f', 'p', 'a', 'w') AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
    UNION ALL
    SELECT 'TYPE', ${qn('ns.nspname', 't.typname')}, 'type ' || ${qn('ns.nspname', 't.typname')},
      CASE WHEN x.grantee IS NULL THEN NULL ELSE ${grantee('x.grantee')} END, x.privilege_type, x.is_grantable, NULL, NULL, ${ownerOf('x.grantee', 't.typowner')}
    FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace
    LEFT JOIN LATERAL (SELECT e.grantee, e.privilege_type, e.is_grantable FROM pg_catalog.aclexplode(t.typacl) e
      UNION ALL SELECT NULL, NULL, NULL) x ON true
    WHERE t.typacl IS NOT NULL AND ${notExt('pg_catalog.pg_type', 't.oid')}
    UNION ALL
    SELECT 'FOREIGN SERVER', pg_catalog.quote_ident(s.srvname), 'server ' || pg_catalog.quote_ident(s.srvname),
      CASE WHEN x.grantee IS NULL THEN NULL ELSE ${grantee('x.grantee')} END, x.privilege_type, x.is_grantable, NULL, NULL, ${ownerOf('x.grantee', 's.srvowner')}
    FROM pg_catalog.pg_foreign_server s
    LEFT JOIN LATERAL (SELECT e.grantee, e.privilege_type, e.is_grantable FROM pg_catalog.aclexplode(s.srvacl) e
      UNION ALL SELECT NULL, NULL, NULL) x ON true
    WHERE s.srvacl IS NOT NULL AND ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
    UNION ALL
    -- Default privileges: for a role (its own entries too), everywhere or in one schema.
    SELECT CASE da.defaclobjtype WHEN 'r' THEN 'TABLES' WHEN 'S' THEN 'SEQUENCES' WHEN 'f' THEN 'FUNCTIONS' WHEN 'T' THEN 'TYPES' ELSE 'SCHEMAS' END,
      pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(da.defaclrole)), NULL,
      CASE WHEN x.grantee IS NULL THEN NULL ELSE ${grantee('x.grantee')} END, x.privilege_type, x.is_grantable, NULL, pg_catalog.quote_ident(dn.nspname),
      -- (A role's own defaults are what it kept of all: only the ones not limited to a schema, which only add.)
      CASE WHEN da.defaclnamespace = 0::pg_catalog.oid THEN ${ownerOf('x.grantee', 'da.defaclrole')} END
    FROM pg_catalog.pg_default_acl da LEFT JOIN pg_catalog.pg_namespace dn ON dn.oid = da.defaclnamespace
    LEFT JOIN LATERAL (SELECT e.grantee, e.privilege_type, e.is_grantable FROM pg_catalog.aclexplode(da.defaclacl) e
      UNION ALL SELECT NULL, NULL, NULL) x ON true
  ) AS a(type, name, parent, grantee, priv, grantable, col, sch, own))`;

/**
 * The `owners` member: the owner of each object a GRANT / REVOKE may name that another role than
 * the reader owns, as [kind, name, owner] (kind: relation, schema, routine, type or server), and
 * `reader`, the role reading the catalog (and owning the rest). A REVOKE from a role that holds
 * nothing there says what the owner revoked from itself; this tells whether that role owns it.
 */
export const OWNERS_JSON = `
  'reader', pg_catalog.quote_ident(CURRENT_USER::pg_catalog.text),
  'owners', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_array(o.kind, o.name, pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(o.owner)))), '[]') FROM (
    SELECT 'relation', ${qn('ns.nspname', 'c.relname')}, c.relowner FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
    WHERE (c.oid IN (SELECT oid FROM anyrel) OR c.relkind = 'S') AND ${NOT_ME('c.relowner')}
    UNION ALL SELECT 'schema', pg_catalog.quote_ident(n.nspname), n.nspowner FROM ns JOIN pg_catalog.pg_namespace n ON n.oid = ns.oid
    WHERE ${NOT_ME('n.nspowner')}
    UNION ALL SELECT 'routine', ${qn('ns.nspname', 'p.proname')} || '(' || ${argTypes('p')} || ')', p.proowner
    FROM pg_catalog.pg_proc p JOIN ns ON ns.oid = p.pronamespace WHERE p.prokind IN ('f', 'p', 'a', 'w') AND ${NOT_ME('p.proowner')}
    UNION ALL SELECT 'type', ${qn('ns.nspname', 't.typname')}, t.typowner FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace
    WHERE ${NOT_ME('t.typowner')}
    UNION ALL SELECT 'server', pg_catalog.quote_ident(s.srvname), s.srvowner FROM pg_catalog.pg_foreign_server s
    WHERE ${NOT_ME('s.srvowner')}
  ) AS o(kind, name, owner))`;
