// The part of the catalog query that reads objects defined by SQL (views, types, indexes,
// constraints, triggers, policies, comments, extensions): each as the statements that create it,
// rebuilt from PostgreSQL's own pg_get_*def output, the statements that drop it, and what it
// depends on (pg_depend, as names). Part of the one catalog query, on its `ns` and `rel` CTEs.

import { argTypes, cls, notExt, qn, USER_NS, withInvalid } from './catalog-fragments.js';
import { AGGREGATE_OBJECTS, MANAGED_AGGREGATE } from './catalog-aggregates.js';
import { OPERATOR_NAME, OPERATOR_OBJECTS } from './catalog-operators.js';
import { TRIGGER_OBJECTS } from './catalog-triggers.js';
import { RULE_OBJECTS } from './catalog-rules.js';
import { MORE_COMMENTS, MORE_DEPS, MORE_OBJECTS } from './catalog-more-objects.js';
import { ANYREL_CTE } from './catalog-anyrel.js';
import { INDEX_OBJECTS } from './catalog-indexes.js';
import { PARTITION_COLUMN_OBJECTS } from './catalog-partition-columns.js';
import { OWNER_OBJECTS } from './catalog-owner-objects.js';
import { DOMAIN_OBJECTS } from './catalog-domains.js';
import { OBJECT_OWNER_JOINS, OBJECT_OWNERS_CTE, ownerJson } from './catalog-owners.js';

export { MANAGED_AGGREGATE } from './catalog-aggregates.js';

/** CTEs (after `ns` and `rel`): `anyrel` (tables, views, matviews), `obj` rows, `objdeps`. */
export const OBJECTS_CTES = `
${ANYREL_CTE},
obj(kind, name, parent, cre, drp, depclass, depobj, labels, ext) AS (
  SELECT CASE r.relkind WHEN 'v' THEN 'view' ELSE 'materialized view' END, ${qn('r.nspname', 'r.relname')}, NULL::pg_catalog.text,
    pg_catalog.json_build_array(CASE r.relkind WHEN 'v' THEN 'CREATE VIEW ' ELSE 'CREATE MATERIALIZED VIEW ' END || ${qn('r.nspname', 'r.relname')}
      -- A materialized view's access method (USING columnar) when it is not heap.
      || CASE WHEN r.relkind = 'm' AND vam.amname <> 'heap' THEN ' USING ' || pg_catalog.quote_ident(vam.amname) ELSE '' END
      || COALESCE(' WITH (' || pg_catalog.array_to_string(c.reloptions, ', ') || ')', '')
      || COALESCE(' TABLESPACE ' || pg_catalog.quote_ident(vts.spcname), '') || E' AS\\n'
      || pg_catalog.rtrim(pg_catalog.pg_get_viewdef(r.oid), ';')),
    pg_catalog.json_build_array(CASE r.relkind WHEN 'v' THEN 'DROP VIEW ' ELSE 'DROP MATERIALIZED VIEW ' END || ${qn('r.nspname', 'r.relname')}),
    ${cls('pg_rewrite')}, rw.oid, NULL::pg_catalog.json, NULL::pg_catalog.json
  FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid JOIN pg_catalog.pg_rewrite rw ON rw.ev_class = r.oid AND rw.rulename = '_RETURN'
  LEFT JOIN pg_catalog.pg_am vam ON vam.oid = c.relam LEFT JOIN pg_catalog.pg_tablespace vts ON vts.oid = c.reltablespace
  WHERE r.relkind IN ('v', 'm')
  UNION ALL
  SELECT 'enum', ${qn('ns.nspname', 't.typname')}, NULL,
    pg_catalog.json_build_array('CREATE TYPE ' || ${qn('ns.nspname', 't.typname')} || ' AS ENUM ('
      || COALESCE((SELECT pg_catalog.string_agg(pg_catalog.quote_literal(e.enumlabel), ', ' ORDER BY e.enumsortorder) FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid), '') || ')'),
    pg_catalog.json_build_array('DROP TYPE ' || ${qn('ns.nspname', 't.typname')}),
    ${cls('pg_type')}, t.oid,
    (SELECT COALESCE(pg_catalog.json_agg(e.enumlabel ORDER BY e.enumsortorder), '[]') FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid), NULL
  FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace WHERE t.typtype = 'e' AND ${notExt('pg_catalog.pg_type', 't.oid')}
  UNION ALL
  SELECT 'composite type', ${qn('ns.nspname', 't.typname')}, NULL,
    pg_catalog.json_build_array('CREATE TYPE ' || ${qn('ns.nspname', 't.typname')} || ' AS ('
      || COALESCE((SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname) || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod)
           || CASE WHEN a.attcollation <> ty.typcollation THEN ' COLLATE ' || ${qn('cn.nspname', 'co.collname')} ELSE '' END, ', ' ORDER BY a.attnum)
         FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
         LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation LEFT JOIN pg_catalog.pg_namespace cn ON cn.oid = co.collnamespace
         WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped), '') || ')'),
    pg_catalog.json_build_array('DROP TYPE ' || ${qn('ns.nspname', 't.typname')}),
    ${cls('pg_type')}, t.oid, NULL, NULL
  FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace JOIN pg_catalog.pg_class tc ON tc.oid = t.typrelid
  WHERE t.typtype = 'c' AND tc.relkind = 'c' AND ${notExt('pg_catalog.pg_type', 't.oid')}
  UNION ALL
${DOMAIN_OBJECTS}${AGGREGATE_OBJECTS}${OPERATOR_OBJECTS}${INDEX_OBJECTS}  UNION ALL
  -- CHECK and EXCLUDE constraints; a partition's own keys and foreign keys (not cloned from its parent's).
  SELECT CASE co.contype WHEN 'c' THEN 'check constraint' WHEN 'x' THEN 'exclusion constraint'
      WHEN 'p' THEN 'primary key' WHEN 'u' THEN 'unique constraint' ELSE 'foreign key' END,
    ${qn('r.nspname', 'r.relname')} || '.' || pg_catalog.quote_ident(co.conname), 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' ADD CONSTRAINT ' || pg_catalog.quote_ident(co.conname) || ' ' || pg_catalog.pg_get_constraintdef(co.oid)),
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' DROP CONSTRAINT ' || pg_catalog.quote_ident(co.conname)),
    ${cls('pg_constraint')}, co.oid, NULL, NULL
  FROM pg_catalog.pg_constraint co JOIN anyrel r ON r.oid = co.conrelid
  WHERE (co.contype IN ('c', 'x') AND co.conislocal AND (NOT r.ispart OR co.coninhcount = 0))
    OR (r.ispart AND co.contype IN ('p', 'u', 'f') AND co.conparentid = 0::pg_catalog.oid)
  UNION ALL
${TRIGGER_OBJECTS}${RULE_OBJECTS}${MORE_OBJECTS}${PARTITION_COLUMN_OBJECTS}  UNION ALL
  SELECT 'row level security', ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    CASE WHEN r.relforcerowsecurity AND r.relrowsecurity THEN pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' ENABLE ROW LEVEL SECURITY',
        'ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' FORCE ROW LEVEL SECURITY')
      WHEN r.relforcerowsecurity THEN pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' FORCE ROW LEVEL SECURITY')
      ELSE pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' ENABLE ROW LEVEL SECURITY') END,
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' NO FORCE ROW LEVEL SECURITY',
      'ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' DISABLE ROW LEVEL SECURITY'),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  -- A table's and a partition's (each partition has its own: ENABLE on the table does not reach it).
  FROM (SELECT a.nspname, a.relname, c.relrowsecurity, c.relforcerowsecurity FROM anyrel a
        JOIN pg_catalog.pg_class c ON c.oid = a.oid AND c.relkind IN ('r', 'p')) r
  WHERE r.relrowsecurity OR r.relforcerowsecurity
  UNION ALL
  -- REPLICA IDENTITY other than DEFAULT; USING INDEX an index that no longer exists is left out (as pg_dump does).
  SELECT 'replica identity', ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' REPLICA IDENTITY '
      || CASE c.relreplident WHEN 'f' THEN 'FULL' WHEN 'n' THEN 'NOTHING' ELSE 'USING INDEX ' || pg_catalog.quote_ident(ric.relname) END),
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' REPLICA IDENTITY DEFAULT'),
    CASE WHEN c.relreplident = 'i' THEN ${cls('pg_index')} END, ri.indexrelid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid AND c.relkind IN ('r', 'p', 'm')
  LEFT JOIN pg_catalog.pg_index ri ON ri.indrelid = r.oid AND ri.indisreplident AND c.relreplident = 'i'
  LEFT JOIN pg_catalog.pg_class ric ON ric.oid = ri.indexrelid
  WHERE c.relreplident IN ('f', 'n') OR ric.oid IS NOT NULL
  UNION ALL
  -- ALTER TABLE … CLUSTER ON: the index a later CLUSTER without an index name uses.
  SELECT 'cluster on', ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' CLUSTER ON ' || pg_catalog.quote_ident(cic.relname)),
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ' SET WITHOUT CLUSTER'),
    ${cls('pg_index')}, ci.indexrelid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_index ci ON ci.indrelid = r.oid AND ci.indisclustered
  JOIN pg_catalog.pg_class cic ON cic.oid = ci.indexrelid
  UNION ALL
  SELECT 'policy', ${qn('r.nspname', 'r.relname')} || '.' || pg_catalog.quote_ident(p.polname), 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array('CREATE POLICY ' || pg_catalog.quote_ident(p.polname) || ' ON ' || ${qn('r.nspname', 'r.relname')}
      || CASE WHEN p.polpermissive THEN '' ELSE ' AS RESTRICTIVE' END
      || CASE p.polcmd WHEN 'r' THEN ' FOR SELECT' WHEN 'a' THEN ' FOR INSERT' WHEN 'w' THEN ' FOR UPDATE' WHEN 'd' THEN ' FOR DELETE' ELSE '' END
      || CASE WHEN pg_catalog.array_eq(p.polroles, '{0}'::pg_catalog.oid[]) THEN '' ELSE ' TO ' || (SELECT pg_catalog.string_agg(CASE WHEN u.r = 0::pg_catalog.oid THEN 'PUBLIC' ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(u.r)) END, ', ' ORDER BY u.ord)
           FROM pg_catalog.unnest(p.polroles) WITH ORDINALITY AS u(r, ord)) END
      || COALESCE(' USING (' || pg_catalog.pg_get_expr(p.polqual, p.polrelid) || ')', '')
      || COALESCE(' WITH CHECK (' || pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) || ')', '')),
    pg_catalog.json_build_array('DROP POLICY ' || pg_catalog.quote_ident(p.polname) || ' ON ' || ${qn('r.nspname', 'r.relname')}),
    ${cls('pg_policy')}, p.oid, NULL, NULL
  FROM pg_catalog.pg_policy p JOIN anyrel r ON r.oid = p.polrelid
  UNION ALL
  SELECT 'extension', pg_catalog.quote_ident(e.extname), NULL,
    pg_catalog.json_build_array('CREATE EXTENSION ' || pg_catalog.quote_ident(e.extname) || ' WITH SCHEMA ' || pg_catalog.quote_ident(en.nspname)
      || ' VERSION ' || pg_catalog.quote_literal(e.extversion)),
    pg_catalog.json_build_array('DROP EXTENSION ' || pg_catalog.quote_ident(e.extname)),
    NULL, NULL, NULL, pg_catalog.json_build_object('schema', en.nspname, 'version', e.extversion,
      -- The versions ALTER EXTENSION … UPDATE TO can reach from the installed one (PostgreSQL's own answer, from the update scripts it has).
      'updates', (SELECT COALESCE(pg_catalog.json_agg(u.target ORDER BY u.target), '[]') FROM pg_catalog.pg_extension_update_paths(e.extname) u
        WHERE u.source OPERATOR(pg_catalog.=) e.extversion AND u.path IS NOT NULL))
  FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace en ON en.oid = e.extnamespace
  WHERE e.extname NOT IN ('plpgsql', 'citus', 'citus_columnar')
  UNION ALL
  SELECT 'comment', 'on ' || pg_catalog.lower(cm.keyword) || ' ' || cm.target, cm.parent,
    pg_catalog.json_build_array('COMMENT ON ' || cm.keyword || ' ' || cm.target || ' IS ' || pg_catalog.quote_literal(cm.description)),
    pg_catalog.json_build_array('COMMENT ON ' || cm.keyword || ' ' || cm.target || ' IS NULL'),
    NULL, NULL, NULL, NULL
  FROM (
    SELECT CASE WHEN d.objsubid > 0 THEN 'COLUMN' ELSE CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END END,
           ${qn('r.nspname', 'r.relname')} || CASE WHEN d.objsubid > 0 THEN '.' || pg_catalog.quote_ident(a.attname) ELSE '' END,
           'relation ' || ${qn('r.nspname', 'r.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN anyrel r ON r.oid = d.objoid AND d.classoid = ${cls('pg_class')}
    LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum = d.objsubid
    WHERE d.objsubid = 0 OR a.attname IS NOT NULL
    UNION ALL
    -- A sequence a column owns goes with its table (dropped with it), as its privileges do.
    SELECT 'SEQUENCE', ${qn('ns.nspname', 'sc.relname')},
      CASE WHEN own.refobjid IS NULL THEN 'sequence ' || ${qn('ns.nspname', 'sc.relname')} ELSE 'relation ' || ${qn('ons.nspname', 'oc.relname')} END, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_class sc ON sc.oid = d.objoid AND d.classoid = ${cls('pg_class')} AND sc.relkind = 'S'
    JOIN ns ON ns.oid = sc.relnamespace
    LEFT JOIN pg_catalog.pg_depend own ON own.classid = ${cls('pg_class')} AND own.objid = sc.oid
      AND own.refclassid = ${cls('pg_class')} AND own.deptype IN ('a', 'i')
    LEFT JOIN pg_catalog.pg_class oc ON oc.oid = own.refobjid LEFT JOIN pg_catalog.pg_namespace ons ON ons.oid = oc.relnamespace
    WHERE ${notExt('pg_catalog.pg_class', 'sc.oid')}    UNION ALL
    SELECT 'INDEX', ${qn('r.nspname', 'ic.relname')}, 'index ' || ${qn('r.nspname', 'ic.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_class ic ON ic.oid = d.objoid AND d.classoid = ${cls('pg_class')} AND ic.relkind = 'i'
    JOIN pg_catalog.pg_index i ON i.indexrelid = ic.oid JOIN anyrel r ON r.oid = i.indrelid
    UNION ALL
    -- By argument types, as COMMENT ON FUNCTION names it (pg_get_function_identity_arguments adds the names).
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END, ${qn('ns.nspname', 'p.proname')} || '(' || ${argTypes('p')} || ')',
           'routine ' || ${qn('ns.nspname', 'p.proname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_proc p ON p.oid = d.objoid AND d.classoid = ${cls('pg_proc')}
    JOIN ns ON ns.oid = p.pronamespace WHERE p.prokind IN ('f', 'p', 'w') AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
    UNION ALL
    -- An aggregate's, by its argument types (* for none, as COMMENT ON AGGREGATE writes it).
    SELECT 'AGGREGATE', ${qn('ns.nspname', 'p.proname')} || '(' || ${argTypes('p', '*')} || ')',
           'routine ' || ${qn('ns.nspname', 'p.proname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_proc p ON p.oid = d.objoid AND d.classoid = ${cls('pg_proc')}
    JOIN pg_catalog.pg_aggregate ag ON ag.aggfnoid::pg_catalog.oid = p.oid
    JOIN ns ON ns.oid = p.pronamespace WHERE ${MANAGED_AGGREGATE} AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
    UNION ALL
    SELECT 'RULE', pg_catalog.quote_ident(rw.rulename) || ' ON ' || ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_rewrite rw ON rw.oid = d.objoid AND d.classoid = ${cls('pg_rewrite')}
    JOIN anyrel r ON r.oid = rw.ev_class WHERE rw.rulename <> '_RETURN'
${MORE_COMMENTS}    UNION ALL
    SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, ${qn('ns.nspname', 't.typname')}, 'type ' || ${qn('ns.nspname', 't.typname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_type t ON t.oid = d.objoid AND d.classoid = ${cls('pg_type')}
    JOIN ns ON ns.oid = t.typnamespace WHERE ${notExt('pg_catalog.pg_type', 't.oid')}
    UNION ALL
    SELECT 'SCHEMA', pg_catalog.quote_ident(ns.nspname), NULL, d.description
    FROM pg_catalog.pg_description d JOIN ns ON ns.oid = d.objoid AND d.classoid = ${cls('pg_namespace')}
    WHERE NOT (ns.nspname = 'public' AND d.description = 'standard public schema')
    UNION ALL
    SELECT 'CONSTRAINT', pg_catalog.quote_ident(co.conname) || ' ON ' || ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_constraint co ON co.oid = d.objoid AND d.classoid = ${cls('pg_constraint')}
    JOIN anyrel r ON r.oid = co.conrelid
    UNION ALL
    SELECT 'TRIGGER', pg_catalog.quote_ident(tg.tgname) || ' ON ' || ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_trigger tg ON tg.oid = d.objoid AND d.classoid = ${cls('pg_trigger')}
    JOIN anyrel r ON r.oid = tg.tgrelid
    UNION ALL
    SELECT 'POLICY', pg_catalog.quote_ident(p.polname) || ' ON ' || ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_policy p ON p.oid = d.objoid AND d.classoid = ${cls('pg_policy')}
    JOIN anyrel r ON r.oid = p.polrelid
    UNION ALL
    SELECT 'EXTENSION', pg_catalog.quote_ident(e.extname), NULL, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_extension e ON e.oid = d.objoid AND d.classoid = ${cls('pg_extension')}
    WHERE e.extname NOT IN ('plpgsql', 'citus', 'citus_columnar')
  ) AS cm(keyword, target, parent, description)
${OWNER_OBJECTS}),
-- What each object references, by name: relations, types and routines in the user's schemas.
-- Only the objects above are looked up (a semi-join on obj), each kind of reference by its own
-- hash join: pg_depend is large on a Citus coordinator.
-- User enums, domains and composite types, each under its own oid and its array type's (a hash join key).
utype AS MATERIALIZED (
  SELECT u.tid, t.typname, t.typnamespace FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace
  LEFT JOIN pg_catalog.pg_class tc ON tc.oid = t.typrelid
  CROSS JOIN LATERAL (VALUES (t.oid), (t.typarray)) AS u(tid)
  WHERE (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND tc.relkind = 'c')) AND u.tid <> 0::pg_catalog.oid
),
objdep AS (
  SELECT d.classid, d.objid, d.refclassid, d.refobjid, d.refobjsubid, d.deptype FROM pg_catalog.pg_depend d
  WHERE (d.classid, d.objid) IN (SELECT o.depclass, o.depobj FROM obj o WHERE o.depclass IS NOT NULL)
    AND d.deptype IN ('n', 'a') AND NOT (d.classid = d.refclassid AND d.objid = d.refobjid)
  UNION ALL
  -- What a domain's CHECK constraints reference is the domain's (a routine they call, above all).
  SELECT ${cls('pg_type')}, dc.contypid, d.refclassid, d.refobjid, d.refobjsubid, d.deptype FROM pg_catalog.pg_depend d
  JOIN pg_catalog.pg_constraint dc ON d.classid = ${cls('pg_constraint')} AND dc.oid = d.objid
  WHERE dc.contypid IN (SELECT o.depobj FROM obj o WHERE o.kind = 'domain') AND d.deptype = 'n'
    AND NOT (d.refclassid = ${cls('pg_type')} AND d.refobjid = dc.contypid)
),
-- Schemas matched against an array of the user's, not joined with ns (taken for one row, it went
-- outside a nested loop reading objdep once per schema: 48 of 84 ms on AdventureWorks).
objdeps AS (
  SELECT x.classid, x.objid, pg_catalog.json_agg(DISTINCT x.name) AS j FROM (
    SELECT d.classid, d.objid, 'relation ' || ${qn('ns.nspname', 'c.relname')} FROM objdep d
      JOIN pg_catalog.pg_class c ON c.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace AND c.relnamespace = ANY (${USER_NS})
      WHERE d.refclassid = ${cls('pg_class')} AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
    UNION ALL
    -- Which columns a view or policy reads ("column app.t.x"), and "row app.t" when it reads the
    -- whole row: a column dropped or retyped rebuilds only the views and policies that use it.
    SELECT d.classid, d.objid, CASE WHEN d.refobjsubid = 0 THEN 'row ' || ${qn('ns.nspname', 'c.relname')}
        ELSE 'column ' || ${qn('ns.nspname', 'c.relname')} || '.' || pg_catalog.quote_ident(a.attname) END
      FROM objdep d JOIN pg_catalog.pg_class c ON c.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace AND c.relnamespace = ANY (${USER_NS})
      LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
      WHERE d.refclassid = ${cls('pg_class')} AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND d.deptype = 'n'
        AND d.classid IN (${cls('pg_rewrite')}, ${cls('pg_policy')}) AND (d.refobjsubid = 0 OR a.attname IS NOT NULL)
    UNION ALL
    SELECT d.classid, d.objid, 'type ' || ${qn('ns.nspname', 't.typname')} FROM objdep d
      JOIN pg_catalog.pg_type t ON t.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = t.typnamespace AND t.typnamespace = ANY (${USER_NS})
      WHERE d.refclassid = ${cls('pg_type')}
    UNION ALL
    -- The index of REPLICA IDENTITY USING INDEX and of CLUSTER ON (no pg_depend row says so).
    SELECT o.depclass, o.depobj, 'index ' || ${qn('ns.nspname', 'ic.relname')} FROM obj o
      JOIN pg_catalog.pg_class ic ON ic.oid = o.depobj JOIN pg_catalog.pg_namespace ns ON ns.oid = ic.relnamespace AND ic.relnamespace = ANY (${USER_NS})
      WHERE o.depclass = ${cls('pg_index')}
    UNION ALL
    SELECT d.classid, d.objid, 'operator ' || ${OPERATOR_NAME} FROM objdep d
      JOIN pg_catalog.pg_operator o ON o.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = o.oprnamespace AND o.oprnamespace = ANY (${USER_NS})
      WHERE d.refclassid = ${cls('pg_operator')}
    UNION ALL
    SELECT d.classid, d.objid, 'server ' || pg_catalog.quote_ident(fs.srvname) FROM objdep d
      JOIN pg_catalog.pg_foreign_server fs ON fs.oid = d.refobjid WHERE d.refclassid = ${cls('pg_foreign_server')}
    UNION ALL
    SELECT d.classid, d.objid, 'text search dictionary ' || ${qn('ns.nspname', 'td.dictname')} FROM objdep d
      JOIN pg_catalog.pg_ts_dict td ON td.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = td.dictnamespace AND td.dictnamespace = ANY (${USER_NS})
      WHERE d.refclassid = ${cls('pg_ts_dict')}
    UNION ALL
    SELECT d.classid, d.objid, 'text search configuration ' || ${qn('ns.nspname', 'tc.cfgname')} FROM objdep d
      JOIN pg_catalog.pg_ts_config tc ON tc.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = tc.cfgnamespace AND tc.cfgnamespace = ANY (${USER_NS})
      WHERE d.refclassid = ${cls('pg_ts_config')}
    UNION ALL
    SELECT d.classid, d.objid, 'routine ' || ${qn('ns.nspname', 'p.proname')} FROM objdep d
      JOIN pg_catalog.pg_proc p ON p.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = p.pronamespace AND p.pronamespace = ANY (${USER_NS})
      WHERE d.refclassid = ${cls('pg_proc')}${MORE_DEPS}
  ) AS x(classid, objid, name)
  GROUP BY x.classid, x.objid
),${OBJECT_OWNERS_CTE}`;

/** The `objects` and `typeUsers` members of the catalog document. */
export const OBJECTS_JSON = `
  -- true: there and readable; null: there, but this role may not read it; false: not there.
  -- (to_regclass would fail on a schema this role may not use.)
  'objectState', CASE (SELECT pg_catalog.has_schema_privilege(sn.oid, 'USAGE') AND pg_catalog.has_table_privilege(sc.oid, 'SELECT')
      FROM pg_catalog.pg_class sc JOIN pg_catalog.pg_namespace sn ON sn.oid = sc.relnamespace
      WHERE sn.nspname = 'citus_migrate' AND sc.relname = 'object_state') WHEN true THEN true WHEN false THEN NULL ELSE false END,
  'objects', (SELECT COALESCE(pg_catalog.json_agg(${withInvalid(
    `pg_catalog.json_build_object(
      'kind', o.kind, 'name', o.name, 'parent', o.parent, 'create', o.cre, 'drop', o.drp,
      'deps', COALESCE(od.j, '[]'), 'labels', o.labels, 'extension', o.ext, 'owner', ${ownerJson('ro')})`,
    'oi',
  )} ORDER BY o.kind, o.name), '[]')
    FROM obj o LEFT JOIN objdeps od ON od.classid = o.depclass AND od.objid = o.depobj${OBJECT_OWNER_JOINS}
    -- An index not valid (catalog-indexes.ts): "invalid": true, rebuilt by a plan that declares it.
    LEFT JOIN pg_catalog.pg_index oi ON o.kind = 'index'::pg_catalog.text
      AND o.depclass::pg_catalog.oid = ${cls('pg_class')}::pg_catalog.oid AND oi.indexrelid = o.depobj),
  'typeUsers', (SELECT COALESCE(pg_catalog.json_agg(DISTINCT pg_catalog.jsonb_build_object('type', u.type, 'by', u.by)), '[]') FROM (
      -- The types a table's columns use (as arrays too): user enums, domains, composites; by each
      -- column's dependency on its type (an index), not a scan of pg_attribute (60 ms at 10,000 tables).
      SELECT 'type ' || ${qn('tn.nspname', 't.typname')}, 'relation ' || ${qn('rel.nspname', 'rel.relname')}
      FROM utype t JOIN pg_catalog.pg_depend d ON d.refclassid = ${cls('pg_type')} AND d.refobjid = t.tid
        AND d.classid = ${cls('pg_class')} AND d.objsubid > 0
      JOIN rel ON rel.oid = d.objid JOIN ns tn ON tn.oid = t.typnamespace
      UNION ALL
      -- A typed table's composite type (CREATE TABLE … OF): it has no column of it.
      SELECT 'type ' || ${qn('tn.nspname', 't.typname')}, 'relation ' || ${qn('rel.nspname', 'rel.relname')}
      FROM rel JOIN utype t ON t.tid = rel.reloftype
      JOIN ns tn ON tn.oid = t.typnamespace) AS u(type, by))`;
