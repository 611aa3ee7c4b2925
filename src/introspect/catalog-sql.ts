// The one catalog query that reads a cluster's state from the coordinator: a single statement
// returning one JSON document, read from pg_catalog and the pg_dist_* catalogs only (never the
// citus_tables/citus_shards views, which call every worker). The round trips do not grow with
// the number of objects. Without the citus extension the pg_dist_* parts are left out.

import { NOT_MANAGED_SQL } from './catalog-not-managed.js';
import { PARTITION_KEY_TYPES, PARTS_CTE, PRT_CTE } from './catalog-partitions.js';
import { MANAGED_AGGREGATE, OBJECTS_CTES, OBJECTS_JSON } from './catalog-objects.js';
import { ACLS_JSON, OWNERS_JSON } from './catalog-privileges.js';
import { EXTENSION_ACLS_JSON } from './catalog-extension-acls.js';
import { attOptions, cls, indexValid, MOVES_SQL, notAShard, notExt, qn, withInvalid } from './catalog-fragments.js';
import { EVENT_TRIGGERS_JSON, ME_CTE, NOT_ME, ownerJson } from './catalog-owners.js';

const USER_SCHEMAS = `
  SELECT n.oid, n.nspname FROM pg_catalog.pg_namespace n
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast', 'citus', 'citus_internal', 'columnar', 'columnar_internal', 'citus_migrate')
    AND n.nspname !~ '^pg_(toast_)?temp_'::pg_catalog.text
    AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                    WHERE d.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass::pg_catalog.oid AND d.objid = n.oid AND d.deptype = 'e')`;

const COLUMN_NAMES = (rel: string, keys: string): string => `(SELECT pg_catalog.json_agg(att.attname ORDER BY k.ord)
      FROM pg_catalog.unnest(${keys}) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_catalog.pg_attribute att ON att.attrelid = ${rel} AND att.attnum = k.attnum)`;

const CONSTRAINT_JSON = `pg_catalog.json_build_object(
      'name', co.conname, 'type', co.contype, 'columns', co.conkey,
      'refSchema', rn.nspname, 'refTable', rc.relname, 'refColumns', CASE WHEN co.contype = 'f' THEN ${COLUMN_NAMES('co.confrelid', 'co.confkey')} END,
      'onDelete', co.confdeltype, 'onUpdate', co.confupdtype, 'validated', co.convalidated,
      'deferrable', co.condeferrable, 'deferred', co.condeferred,
      'matchFull', CASE WHEN co.confmatchtype = 'f' THEN true END, 'nullsNotDistinct', CASE WHEN ki.indnullsnotdistinct THEN true END,
      -- A key's INCLUDE columns: its index's columns after the key's own (attribute numbers).
      'include', CASE WHEN ki.indnatts > ki.indnkeyatts THEN ARRAY(SELECT k.a FROM pg_catalog.unnest(ki.indkey::pg_catalog.int2[]) WITH ORDINALITY AS k(a, o)
        WHERE k.o > ki.indnkeyatts::pg_catalog.int8 ORDER BY k.o) END)`;

function build(citus: boolean): string {
  // Per-table details are aggregated set-wise (one pass over pg_attribute, pg_constraint,
  // pg_index grouped by relation) rather than with correlated subqueries: at 10,000 tables this
  // is several times faster.
  return `
WITH ns AS (${USER_SCHEMAS}),
-- The role reading the catalog (the one that applies): owners other than it are named (catalog-owners.ts).
${ME_CTE},
rel AS (
  SELECT c.oid, c.relnamespace, ns.nspname, c.relname, c.relkind, c.reltuples, c.relpages, c.relpersistence, c.relam, c.reloptions, c.reltoastrelid, c.relrowsecurity, c.relforcerowsecurity, c.reloftype
  FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
    AND ${notExt('pg_catalog.pg_class', 'c.oid')}
    ${citus ? `AND ${notAShard('c')}` : ''}
),
${PRT_CTE}
-- Foreign tables of their own (not a partition; one may inherit): objects defined by SQL.
frel AS (
  SELECT c.oid, ns.nspname, c.relname FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
  WHERE c.relkind = 'f' AND NOT c.relispartition
    AND ${notExt('pg_catalog.pg_class', 'c.oid')}${citus ? ` AND ${notAShard('c')}` : ''}
),
-- A table's columns in no particular order: the reader puts them in attnum order (catalog-schema.ts;
-- PostgreSQL 15 sorts each table's rows apart for an aggregate's ORDER BY: ~60 ms at 10,000 tables).
cols AS (
  SELECT a.attrelid, pg_catalog.json_agg(pg_catalog.json_build_object(
      'num', a.attnum, 'name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
      -- A DEFAULT cannot name a column: printed without the table's context, ~10x faster cold.
      'notNull', a.attnotnull, 'default', pg_catalog.pg_get_expr(ad.adbin, CASE WHEN a.attgenerated = '' THEN 0 ELSE ad.adrelid END),
      'identity', a.attidentity, 'generated', a.attgenerated, 'collation', co.collname, 'collationSchema', CASE WHEN cns.nspname <> 'pg_catalog' THEN cns.nspname END,
      -- SET STORAGE other than the type's own: the column's, then the type's (two letters).
      'storage', CASE WHEN a.attstorage <> ty.typstorage THEN a.attstorage::pg_catalog.text || ty.typstorage::pg_catalog.text END,
      -- SET STATISTICS (-1, or NULL from PostgreSQL 17 on: the default).
      'statistics', CASE WHEN a.attstattarget >= 0 THEN a.attstattarget END,
      -- COMPRESSION (pglz, lz4) and attribute options (n_distinct = …), when set.
      'compression', CASE a.attcompression WHEN 'p' THEN 'pglz' WHEN 'l' THEN 'lz4' END, 'options', ${attOptions('a')},
      -- From a parent by INHERITS, not the table's own (a partition's columns are never read here).
      'inherited', CASE WHEN NOT a.attislocal THEN true END)) AS j
  FROM pg_catalog.pg_attribute a
  JOIN rel ON rel.oid = a.attrelid
  LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
  LEFT JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
  LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation AND a.attcollation <> ty.typcollation
  LEFT JOIN pg_catalog.pg_namespace cns ON cns.oid = co.collnamespace
  WHERE a.attnum > 0 AND NOT a.attisdropped
  GROUP BY a.attrelid
),
-- A key whose index is not valid (ALTER TABLE ONLY on a partitioned table whose partitions lack
-- it; a catalog edit) enforces nothing: "invalid": true, and the plan rebuilds it.
cons AS (
  SELECT co.conrelid, pg_catalog.json_agg(${withInvalid(CONSTRAINT_JSON, 'ki')} ORDER BY co.conname) AS j
  FROM pg_catalog.pg_constraint co
  JOIN rel ON rel.oid = co.conrelid
  -- A key's own index (a foreign key's conindid is the referenced table's).
  LEFT JOIN pg_catalog.pg_index ki ON ki.indexrelid = co.conindid AND co.contype IN ('p'::pg_catalog."char", 'u'::pg_catalog."char")
  LEFT JOIN pg_catalog.pg_class rc ON rc.oid = co.confrelid
  LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
  -- conparentid: the copies PostgreSQL keeps of a foreign key to a partitioned table, one per
  -- partition (they go with the key); a key to a partition itself is named as not managed.
  WHERE co.contype IN ('p', 'u', 'f') AND co.conparentid = 0::pg_catalog.oid AND NOT COALESCE(rc.relispartition, false)
  GROUP BY co.conrelid
),
idx AS (
  SELECT i.indrelid, pg_catalog.json_agg(pg_catalog.json_build_object(
      'name', ic.relname, 'unique', i.indisunique, 'method', am.amname, 'valid', ${indexValid('i')},
      'columns', i.indkey::pg_catalog.int2[],
      -- What the manifest can declare: plain columns, ascending, default operator classes, no options.
      'simple', i.indexprs IS NULL AND i.indpred IS NULL AND i.indnkeyatts = i.indnatts AND ic.reloptions IS NULL
        -- In the database's tablespace (CREATE INDEX … TABLESPACE is written in a sql: file).
        AND ic.reltablespace = 0::pg_catalog.oid
        AND NOT i.indnullsnotdistinct AND i.indoption::pg_catalog.int2[] OPERATOR(pg_catalog.<@) '{0}'::pg_catalog.int2[]
        -- A column indexed with another collation than its own (COLLATE "C") is not a plain column.
        -- (as text: an oidvector cast to oid[] starts at index 0, and arrays with other bounds are not equal)
        AND pg_catalog.array_to_string(i.indcollation::pg_catalog.oid[], ',') OPERATOR(pg_catalog.=) (SELECT pg_catalog.string_agg(att.attcollation::pg_catalog.text, ',' ORDER BY k.ord)
          FROM pg_catalog.unnest(i.indkey::pg_catalog.int2[]) WITH ORDINALITY AS k(attnum, ord)
          JOIN pg_catalog.pg_attribute att ON att.attrelid = i.indrelid AND att.attnum = k.attnum)
        AND NOT (i.indclass::pg_catalog.oid[] OPERATOR(pg_catalog.&&) (SELECT pg_catalog.array_agg(oc.oid) FROM pg_catalog.pg_opclass oc WHERE NOT oc.opcdefault))) ORDER BY ic.relname) AS j
  FROM pg_catalog.pg_index i
  JOIN rel ON rel.oid = i.indrelid
  JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
  JOIN pg_catalog.pg_am am ON am.oid = ic.relam
  WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_constraint kc
                    WHERE kc.conindid = i.indexrelid AND kc.conrelid = i.indrelid AND kc.contype IN ('p', 'u', 'x'))
  GROUP BY i.indrelid
),
${PARTS_CTE}${OBJECTS_CTES}${
    citus
      ? `,
-- A table's shards as create_distributed_table made them, and its tenants isolated on shards of
-- their own (isolate_tenant_to_new_shard leaves a one-value shard between the two halves of the
-- shard it cut: the half after it is not counted).
shards AS (SELECT x.logicalrelid,
    pg_catalog.count(*) FILTER (WHERE NOT x.single AND NOT COALESCE(x.after_single, false)) AS n,
    pg_catalog.json_agg(x.lo ORDER BY x.lo) FILTER (WHERE x.single) AS isolated
  FROM (SELECT s.logicalrelid, s.shardminvalue::pg_catalog.int8 AS lo,
          COALESCE(s.shardminvalue OPERATOR(pg_catalog.=) s.shardmaxvalue, false) AS single,
          pg_catalog.lag(COALESCE(s.shardminvalue OPERATOR(pg_catalog.=) s.shardmaxvalue, false))
            OVER (PARTITION BY s.logicalrelid ORDER BY s.shardminvalue::pg_catalog.int8) AS after_single
        FROM pg_catalog.pg_dist_shard s) x
  GROUP BY x.logicalrelid)`
      : ''
  }
SELECT pg_catalog.json_build_object(
  'server', pg_catalog.json_build_object(
    'versionNum', pg_catalog.current_setting('server_version_num')::int,
    'version', pg_catalog.current_setting('server_version'),
    'database', pg_catalog.current_database(),
    'citus', (SELECT e.extversion FROM pg_catalog.pg_extension e WHERE e.extname = 'citus'),
    'columnar', (SELECT e.extversion FROM pg_catalog.pg_extension e WHERE e.extname = 'citus_columnar'),
    'walLevel', pg_catalog.current_setting('wal_level'),
    -- The lock table's size (checks/lock-footprint.ts): max_locks_per_transaction × (max_connections + max_prepared_transactions).
    'maxLocks', pg_catalog.current_setting('max_locks_per_transaction')::int,
    'maxConnections', pg_catalog.current_setting('max_connections')::int,
    'maxPrepared', pg_catalog.current_setting('max_prepared_transactions')::int,
    -- PostgreSQL 15.19+: which libraries may be logical decoding output plugins (Citus's online moves need 'citus').
    -- Through pg_settings: a role without pg_read_all_settings gets no row (NULL: not checked), not an error.
    'outputPlugins', (SELECT s.setting FROM pg_catalog.pg_settings s WHERE s.name = 'output_plugin_libraries')),
  'schemas', (SELECT COALESCE(pg_catalog.json_agg(ns.nspname ORDER BY ns.nspname), '[]') FROM ns),
  'distributedSchemas', ${
    citus
      ? `(SELECT COALESCE(pg_catalog.json_agg(ns.nspname ORDER BY ns.nspname), '[]') FROM pg_catalog.pg_dist_schema ds JOIN ns ON ns.oid = ds.schemaid)`
      : `'[]'::pg_catalog.json`
  },
  -- Background jobs (a rebalance, a move) that have not ended: what the cluster guard waits for.
  'jobs', ${
    citus
      ? `(SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object('id', j.job_id, 'state', j.state, 'type', j.job_type, 'description', j.description) ORDER BY j.job_id), '[]')
    FROM pg_catalog.pg_dist_background_job j WHERE j.state::pg_catalog.text IN ('scheduled', 'running', 'cancelling', 'failing'))`
      : `'[]'::pg_catalog.json`
  },
  -- Sessions moving shards in the foreground (cluster-guard.ts).
  'moves', ${citus ? MOVES_SQL : `'[]'::pg_catalog.json`},
  'tables', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
      'schema', r.nspname, 'name', r.relname, 'persistence', r.relpersistence, 'am', am.amname,
      -- Planner statistics (what a copy or a rewrite of a coordinator table costs); -1: never analyzed.
      'rows', r.reltuples::bigint, 'bytes', r.relpages::bigint * pg_catalog.current_setting('block_size')::bigint,
      'partitionBy', CASE WHEN r.relkind = 'p' THEN pg_catalog.pg_get_partkeydef(r.oid) END, 'partitions', parts.j,
      -- The type of each key (its operator class's input type): an expression's bounds are read with it.
      'partitionKeyTypes', CASE WHEN r.relkind = 'p' THEN ${PARTITION_KEY_TYPES('r.oid')} END,
      -- Parents by INHERITS (rel holds no partitions): a pruned parent is dropped after its children.
      'inherits', (SELECT pg_catalog.json_agg(pg_catalog.json_build_object('schema', pn.nspname, 'name', pc.relname))
        FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class pc ON pc.oid = i.inhparent
        JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace WHERE i.inhrelid = r.oid),
      -- A typed table's composite type (CREATE TABLE … OF).
      'ofType', CASE WHEN r.reloftype <> 0::pg_catalog.oid THEN (SELECT ${qn('otn.nspname', 'ot.typname')} FROM pg_catalog.pg_type ot
        JOIN pg_catalog.pg_namespace otn ON otn.oid = ot.typnamespace WHERE ot.oid = r.reloftype) END,
      'columns', COALESCE(cols.j, '[]'), 'constraints', COALESCE(cons.j, '[]'), 'indexes', COALESCE(idx.j, '[]'),
      -- Storage parameters (WITH (fillfactor = 70)), its TOAST table's too: toast.* (none without one).
      'options', r.reloptions, 'toast', r.reltoastrelid <> 0::pg_catalog.oid,
      'toastOptions', (SELECT t.reloptions FROM pg_catalog.pg_class t WHERE t.oid = r.reltoastrelid)${
        citus
          ? `,
      'citus', CASE WHEN p.logicalrelid IS NULL THEN NULL ELSE pg_catalog.json_build_object(
            'method', p.partmethod, 'repmodel', p.repmodel, 'colocationId', p.colocationid,
            'column', CASE WHEN p.partkey IS NULL THEN NULL ELSE pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) END,
            'shards', COALESCE(shards.n, 0), 'isolated', shards.isolated, 'autoconverted', COALESCE(p.autoconverted, false)) END`
          : ''
      }
    ) ORDER BY r.nspname, r.relname), '[]')
    FROM rel r
    LEFT JOIN pg_catalog.pg_am am ON am.oid = r.relam
    LEFT JOIN parts ON parts.inhparent = r.oid
    LEFT JOIN cols ON cols.attrelid = r.oid
    LEFT JOIN cons ON cons.conrelid = r.oid
    LEFT JOIN idx ON idx.indrelid = r.oid${
      citus
        ? `
    LEFT JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid::pg_catalog.oid = r.oid
    LEFT JOIN shards ON shards.logicalrelid::pg_catalog.oid = r.oid`
        : ''
    }),
  'sequences', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
      'schema', n.nspname, 'name', c.relname, 'type', pg_catalog.format_type(s.seqtypid, NULL),
      'cache', s.seqcache::pg_catalog.text, 'start', s.seqstart::pg_catalog.text, 'increment', s.seqincrement::pg_catalog.text,
      'min', s.seqmin::pg_catalog.text, 'max', s.seqmax::pg_catalog.text, 'cycle', s.seqcycle, 'unlogged', c.relpersistence = 'u',
      'ownedBy', CASE WHEN own.refobjid IS NULL THEN NULL ELSE pg_catalog.json_build_object(
            'schema', tn.nspname, 'table', tc.relname, 'column', ta.attname, 'deptype', own.deptype) END,
      'distributed', ${citus ? `EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object o WHERE o.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid AND o.objid = c.oid)` : 'false'}
    ) ORDER BY n.nspname, c.relname), '[]')
    FROM pg_catalog.pg_sequence s
    JOIN pg_catalog.pg_class c ON c.oid = s.seqrelid
    JOIN ns n ON n.oid = c.relnamespace
    LEFT JOIN LATERAL (SELECT d.refobjid, d.refobjsubid, d.deptype FROM pg_catalog.pg_depend d
        WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid AND d.objid = c.oid
          AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid AND d.deptype IN ('a', 'i') LIMIT 1) own ON true
    LEFT JOIN pg_catalog.pg_class tc ON tc.oid = own.refobjid
    LEFT JOIN pg_catalog.pg_namespace tn ON tn.oid = tc.relnamespace
    LEFT JOIN pg_catalog.pg_attribute ta ON ta.attrelid = own.refobjid AND ta.attnum = own.refobjsubid
    WHERE ${notExt('pg_catalog.pg_class', 'c.oid')}),
  'routines', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
      'schema', n.nspname, 'name', p.proname, 'kind', p.prokind, 'language', l.lanname,
      'argTypes', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.format_type(u.t, NULL) ORDER BY u.ord), '[]')
          FROM pg_catalog.unnest(p.proargtypes::pg_catalog.oid[]) WITH ORDINALITY AS u(t, ord)),
      'result', pg_catalog.pg_get_function_result(p.oid),
      'definition', pg_catalog.pg_get_functiondef(p.oid),
      -- Aggregates and types (range, base) built on it that citus-migrate does not manage (catalog-objects.ts): PostgreSQL refuses its DROP while they exist.
      'dependents', (SELECT pg_catalog.json_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid) ORDER BY d.classid, d.objid)
        FROM pg_catalog.pg_depend d WHERE d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND d.refobjid = p.oid AND d.deptype = 'n'
          AND (d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass::pg_catalog.oid OR (d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
            AND EXISTS (SELECT 1 FROM pg_catalog.pg_aggregate ag JOIN pg_catalog.pg_proc p ON p.oid = ag.aggfnoid::pg_catalog.oid
              WHERE ag.aggfnoid::pg_catalog.oid = d.objid AND NOT (${MANAGED_AGGREGATE}))))),
      'owner', ${ownerJson('ro')},
      'distribution', ${
        citus
          ? `(SELECT pg_catalog.json_build_object('argIndex', o.distribution_argument_index,
            'colocationId', o.colocationid, 'forceDelegation', o.force_delegation)
          FROM pg_catalog.pg_dist_object o WHERE o.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid AND o.objid = p.oid)`
          : 'NULL'
      }
    ) ORDER BY n.nspname, p.proname, p.oid::pg_catalog.regprocedure::pg_catalog.text), '[]')
    FROM pg_catalog.pg_proc p
    JOIN ns n ON n.oid = p.pronamespace
    JOIN pg_catalog.pg_language l ON l.oid = p.prolang
    LEFT JOIN pg_catalog.pg_roles ro ON ro.oid OPERATOR(pg_catalog.=) p.proowner AND ${NOT_ME('p.proowner')}
    WHERE p.prokind IN ('f', 'p', 'w') AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
      -- Not a range type's constructors (internal to the type: CREATE TYPE … AS RANGE makes them).
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d WHERE d.classid = ${cls('pg_proc')} AND d.objid = p.oid
        AND d.refclassid = ${cls('pg_type')} AND d.deptype = 'i')),
  'notManaged', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object('kind', x.kind, 'name', x.name) ORDER BY x.kind, x.name), '[]')
    FROM (${NOT_MANAGED_SQL(citus)}) AS x(kind, name)),${OBJECTS_JSON},${ACLS_JSON},${EXTENSION_ACLS_JSON},
  'eventTriggers', ${EVENT_TRIGGERS_JSON},
  'roles', (SELECT COALESCE(pg_catalog.json_agg(r.rolname ORDER BY r.rolname), '[]') FROM pg_catalog.pg_roles r),${OWNERS_JSON},
  'nodes', ${
    citus
      ? `(SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
      'id', d.nodeid, 'group', d.groupid, 'host', d.nodename, 'port', d.nodeport, 'role', d.noderole,
      'active', d.isactive, 'hasMetadata', d.hasmetadata, 'metadataSynced', d.metadatasynced,
      'shouldHaveShards', d.shouldhaveshards) ORDER BY d.groupid, d.nodeid), '[]') FROM pg_catalog.pg_dist_node d)`
      : `'[]'::pg_catalog.json`
  }
) AS state`;
}

/** The catalog query for a coordinator with the citus extension. */
export const CATALOG_SQL_CITUS: string = build(true);
/** The same without the pg_dist_* catalogs, for a PostgreSQL without Citus. */
export const CATALOG_SQL_PLAIN: string = build(false);
