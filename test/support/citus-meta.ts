// The Citus metadata of a database as comparable text (issue #24): pg_dist_partition (method,
// column, repmodel, colocation groups as a partition of tables), shard boundaries and placements
// per shard, pg_dist_object (distribution argument, colocation including reference,
// force_delegation) and pg_dist_schema. Ids are replaced by membership: colocation ids, shard
// ids and object ids differ between two clusters built the same way.
import type { TestDb } from './db.js';

/** One JSON document describing the Citus layout of the connected database (the tool's own schema left out). */
export const CITUS_LAYOUT_SQL = `
WITH part AS (
  SELECT p.logicalrelid, p.logicalrelid::regclass::text AS rel, p.partmethod, p.repmodel, p.colocationid,
         CASE WHEN p.partkey IS NULL THEN NULL
              ELSE pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) END AS col
  FROM pg_catalog.pg_dist_partition p
  JOIN pg_catalog.pg_class c ON c.oid = p.logicalrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname <> 'citus_migrate'
),
grp AS (
  SELECT colocationid, string_agg(rel, ',' ORDER BY rel) AS members FROM part
  WHERE colocationid <> 0 GROUP BY colocationid
),
refgrp AS (SELECT colocationid FROM part WHERE repmodel = 't' LIMIT 1),
shards AS (
  SELECT s.logicalrelid,
         json_agg(json_build_array(s.shardminvalue, s.shardmaxvalue,
           (SELECT count(*) FROM pg_catalog.pg_dist_placement pl WHERE pl.shardid = s.shardid))
           ORDER BY s.shardminvalue::text COLLATE "C" NULLS FIRST, s.shardmaxvalue::text COLLATE "C") AS shards
  FROM pg_catalog.pg_dist_shard s GROUP BY s.logicalrelid
),
tables AS (
  SELECT json_agg(json_build_object(
    'table', part.rel, 'method', part.partmethod, 'repmodel', part.repmodel, 'column', part.col,
    'colocated_with', CASE WHEN part.colocationid = 0 THEN NULL ELSE grp.members END,
    'shards', COALESCE(shards.shards, '[]'::json)) ORDER BY part.rel) AS j
  FROM part LEFT JOIN grp USING (colocationid) LEFT JOIN shards USING (logicalrelid)
),
objects AS (
  SELECT json_agg(json_build_object(
    'object', (pg_catalog.pg_identify_object(o.classid, o.objid, o.objsubid)).type || ' ' ||
              (pg_catalog.pg_identify_object(o.classid, o.objid, o.objsubid)).identity,
    'distribution_argument_index', o.distribution_argument_index,
    'colocation', CASE WHEN o.colocationid IS NULL THEN NULL
                       WHEN o.colocationid = (SELECT colocationid FROM refgrp) THEN 'reference'
                       ELSE COALESCE((SELECT members FROM grp WHERE grp.colocationid = o.colocationid), 'a group without tables') END,
    -- NULL (never given) and false behave the same: a call is forced only when true.
    'force_delegation', COALESCE(o.force_delegation, false))) AS j
  FROM pg_catalog.pg_dist_object o
  WHERE o.classid <> 'pg_catalog.pg_authid'::regclass
    AND o.classid <> 'pg_catalog.pg_database'::regclass
    AND o.classid <> 'pg_catalog.pg_extension'::regclass
    AND (pg_catalog.pg_identify_object(o.classid, o.objid, o.objsubid)).identity NOT LIKE 'citus_migrate%'
    AND (pg_catalog.pg_identify_object(o.classid, o.objid, o.objsubid)).schema IS DISTINCT FROM 'citus_migrate'
),
-- pg_dump sets default_table_access_method in SET lines the dump comparison drops: read it here.
methods AS (
  SELECT json_agg(json_build_object('relation', c.oid::regclass::text, 'access_method', am.amname)) AS j
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_am am ON am.oid = c.relam
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'm') AND am.amname <> 'heap'
    AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'columnar', 'columnar_internal', 'citus_migrate')
),
schemas AS (
  SELECT json_agg(json_build_object('schema', s.schemaid::regnamespace::text,
    'colocated_with', COALESCE(grp.members, 'a group without tables'))) AS j
  FROM pg_catalog.pg_dist_schema s LEFT JOIN grp USING (colocationid)
)
SELECT json_build_object(
  'tables', COALESCE((SELECT j FROM tables), '[]'::json),
  'objects', COALESCE((SELECT j FROM objects), '[]'::json),
  'schemas', COALESCE((SELECT j FROM schemas), '[]'::json),
  'accessMethods', COALESCE((SELECT j FROM methods), '[]'::json))::text AS doc`;

export interface CitusLayout {
  readonly tables: readonly Record<string, unknown>[];
  readonly objects: readonly Record<string, unknown>[];
  readonly schemas: readonly Record<string, unknown>[];
  readonly accessMethods: readonly Record<string, unknown>[];
}

/** Reads a database's Citus layout (coordinator only). */
export async function citusLayout(db: TestDb): Promise<CitusLayout> {
  const [row] = await db.query<{ doc: string }>(CITUS_LAYOUT_SQL);
  return JSON.parse(row!.doc) as CitusLayout;
}

/** The entries of one layout missing from the other, both ways, as "- …" (only the original) and "+ …" (only the copy). */
export function layoutDifferences(want: CitusLayout, got: CitusLayout): string[] {
  const out: string[] = [];
  for (const key of ['tables', 'objects', 'schemas', 'accessMethods'] as const) {
    const a = new Set(want[key].map((x) => JSON.stringify(x)));
    const b = new Set(got[key].map((x) => JSON.stringify(x)));
    for (const x of a) if (!b.has(x)) out.push(`- ${key}: ${x}`);
    for (const x of b) if (!a.has(x)) out.push(`+ ${key}: ${x}`);
  }
  return out;
}
