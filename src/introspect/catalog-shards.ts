// Catalog SQL for `plan --shards` (issue #24): where each shard is placed (coordinator
// metadata), and what a relation has — columns, indexes with their validity, constraints and
// user triggers — read the same way from the coordinator's tables and from each node's shards.
// These run with the session's search_path, and on the workers with the database's own, which
// its owner may set to put public first: every function, type and operator is written with its
// schema (OPERATOR(pg_catalog.=)), so none of another schema can stand in for it.

/**
 * Every placement of every Citus table outside the tool's own schema, as one JSON document:
 * [{table: [schema, name], shardId, shard (schema-qualified, quoted as Citus names it),
 *   group, host, port}].
 */
export const SHARD_PLACEMENTS_SQL = `
SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
         'table', pg_catalog.json_build_array(n.nspname, c.relname),
         'shardId', s.shardid,
         'shard', pg_catalog.shard_name(s.logicalrelid, s.shardid, false),
         'group', pl.groupid,
         'host', dn.nodename,
         'port', dn.nodeport)
       ORDER BY n.nspname, c.relname, s.shardid, pl.groupid), '[]'::pg_catalog.json)::pg_catalog.text AS doc
  FROM pg_catalog.pg_dist_shard s
  JOIN pg_catalog.pg_dist_placement pl ON pl.shardid OPERATOR(pg_catalog.=) s.shardid
  JOIN pg_catalog.pg_dist_node dn ON dn.groupid OPERATOR(pg_catalog.=) pl.groupid AND dn.noderole OPERATOR(pg_catalog.=) 'primary'::pg_catalog.noderole
  JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) s.logicalrelid::pg_catalog.oid
  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
 WHERE n.nspname OPERATOR(pg_catalog.<>) 'citus_migrate'::pg_catalog.name`;

/**
 * What each listed relation has, as one JSON text. $1 is a JSON array of [key, relation, group]:
 * the relation is a schema-qualified name; with a group, only rows of the node whose
 * pg_dist_local_group is that group are read (each node gets the whole list and reads its own).
 * Index keys leave names out (a shard's index is named after its shard): uniqueness, access
 * method, each column or expression, and the predicate; an index's definition is read only for
 * the tables (no group). Citus's own internal triggers are left out.
 */
export const RELATION_FACTS_SQL = `
WITH wanted AS (
  SELECT x OPERATOR(pg_catalog.->>) 0 AS key, pg_catalog.to_regclass(x OPERATOR(pg_catalog.->>) 1)::pg_catalog.oid AS oid,
         x OPERATOR(pg_catalog.->>) 1 AS relation, x OPERATOR(pg_catalog.->>) 2 IS NULL AS whole
    FROM pg_catalog.json_array_elements($1::pg_catalog.json) x
   WHERE x OPERATOR(pg_catalog.->>) 2 IS NULL
      OR (x OPERATOR(pg_catalog.->>) 2)::int OPERATOR(pg_catalog.=) (SELECT groupid FROM pg_catalog.pg_dist_local_group)
)
SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
  'key', w.key,
  'exists', w.oid IS NOT NULL,
  'columns', (SELECT pg_catalog.json_agg(pg_catalog.json_build_array(a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull)
                ORDER BY a.attname)
                FROM pg_catalog.pg_attribute a
               WHERE a.attrelid OPERATOR(pg_catalog.=) w.oid AND a.attnum OPERATOR(pg_catalog.>) 0::pg_catalog.int2 AND NOT a.attisdropped),
  'indexes', (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
                'name', ic.relname,
                'schema', ns.nspname,
                'valid', i.indisvalid AND i.indisready AND i.indislive,
                'constraint', (SELECT co.conname FROM pg_catalog.pg_constraint co
                                WHERE co.conindid OPERATOR(pg_catalog.=) i.indexrelid AND co.conrelid OPERATOR(pg_catalog.=) i.indrelid LIMIT 1),
                -- Only the coordinator's table's: what a missing shard index is built from (deparsing
                -- every shard's was most of the workers' time, for nothing).
                'definition', CASE WHEN w.whole THEN pg_catalog.pg_get_indexdef(i.indexrelid) END,
                'shape', pg_catalog.json_build_array(i.indisunique, am.amname,
                   -- A column as pg_get_indexdef(index, k, true) prints it (its name, quoted), read
                   -- from pg_attribute; only an expression is deparsed.
                   (SELECT pg_catalog.json_agg(CASE WHEN x.attnum OPERATOR(pg_catalog.<>) 0::pg_catalog.int2
                        THEN pg_catalog.quote_ident(a.attname) ELSE pg_catalog.pg_get_indexdef(i.indexrelid, x.k::pg_catalog.int4, true) END ORDER BY x.k)
                      FROM pg_catalog.unnest(i.indkey::pg_catalog.int2[]) WITH ORDINALITY AS x(attnum, k)
                      LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid AND a.attnum OPERATOR(pg_catalog.=) x.attnum),
                   pg_catalog.pg_get_expr(i.indpred, i.indrelid, true)))
                ORDER BY ic.relname)
                FROM pg_catalog.pg_index i
                JOIN pg_catalog.pg_class ic ON ic.oid OPERATOR(pg_catalog.=) i.indexrelid
                JOIN pg_catalog.pg_namespace ns ON ns.oid OPERATOR(pg_catalog.=) ic.relnamespace
                JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) ic.relam
               WHERE i.indrelid OPERATOR(pg_catalog.=) w.oid),
  'constraints', (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
                'name', co.conname,
                'type', co.contype,
                'definition', pg_catalog.pg_get_constraintdef(co.oid, true),
                'refTable', (SELECT pg_catalog.json_build_array(rn.nspname, rc.relname) FROM pg_catalog.pg_class rc
                              JOIN pg_catalog.pg_namespace rn ON rn.oid OPERATOR(pg_catalog.=) rc.relnamespace WHERE rc.oid OPERATOR(pg_catalog.=) co.confrelid),
                'columns', (SELECT pg_catalog.json_agg(a.attname ORDER BY k.ord)
                              FROM pg_catalog.unnest(co.conkey) WITH ORDINALITY k(num, ord)
                              JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) co.conrelid AND a.attnum OPERATOR(pg_catalog.=) k.num))
                ORDER BY co.conname)
                FROM pg_catalog.pg_constraint co
               WHERE co.conrelid OPERATOR(pg_catalog.=) w.oid
                 AND co.contype OPERATOR(pg_catalog.=) ANY (ARRAY['p', 'u', 'f', 'c', 'x']::pg_catalog."char"[])),
  -- Only for a relation with triggers (relhastriggers): most shards have none, and the lookup of
  -- each one's cost a third of a worker's time.
  'triggers', CASE WHEN (SELECT c.relhastriggers FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) w.oid) THEN (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
                'name', t.tgname,
                'function', p.oid::pg_catalog.regprocedure::pg_catalog.text,
                'definition', pg_catalog.pg_get_triggerdef(t.oid))
                ORDER BY t.tgname)
                FROM pg_catalog.pg_trigger t
                JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) t.tgfoid
               WHERE t.tgrelid OPERATOR(pg_catalog.=) w.oid AND NOT t.tgisinternal) END
)), '[]'::pg_catalog.json)::pg_catalog.text AS doc
-- Types print the same on every node, whatever each node's database says its search_path is:
-- pinned for the statement, before the rows whose types are printed are formed.
FROM (SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true)) AS pin(path), wanted w`;

/**
 * RELATION_FACTS_SQL run on every node in the metadata (one query per node, through Citus):
 * $1 the facts query, $2 its list. Rows: host, port, group, success, result.
 */
export const FACTS_ON_NODES_SQL = `
SELECT dn.nodename AS host, dn.nodeport AS port, dn.groupid AS "group", r.success, r.result
  FROM pg_catalog.run_command_on_all_nodes(
         pg_catalog.replace($1, '$1', pg_catalog.quote_literal($2))) r
  JOIN pg_catalog.pg_dist_node dn ON dn.nodeid OPERATOR(pg_catalog.=) r.nodeid
 ORDER BY dn.groupid`;
