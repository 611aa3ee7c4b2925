// SQL fragments the parts of the one catalog query share.

// The query runs with search_path = public (catalog-query.ts), where another role may have put
// operators: each operator here has operands of exactly the types of one of pg_catalog's own
// (oid = oid, text || text), so no look-alike matches them better (pinned by
// test/integration/security-catalog-binding.test.ts).

/** A system catalog's oid as a constant (for pg_depend's classid and the like). */
export const cls = (name: string): string => `'pg_catalog.${name}'::pg_catalog.regclass::pg_catalog.oid`;

/** A function (a regproc column) as regproc prints it with search_path = public: PostgreSQL's own and public's unqualified. */
export const regprocText = (oid: string): string => `${oid}::pg_catalog.regproc::pg_catalog.text`;

/**
 * Whether index `i` (a pg_index row) is valid: built (a CREATE INDEX CONCURRENTLY that failed
 * leaves it not valid: not used, its UNIQUE not enforced), ready and live (a DROP INDEX
 * CONCURRENTLY that stopped half way leaves it neither).
 */
export const indexValid = (i: string): string => `(${i}.indisvalid AND ${i}.indisready AND ${i}.indislive)`;

/**
 * JSON object `obj` with `"invalid": true` added last when index `i` is there and not valid; as it
 * is otherwise (no key: documents recorded before it was read stay equal). Appended to the text, not
 * merged as jsonb, which would reorder the keys (the document's keys come in its schema's order).
 */
export const withInvalid = (obj: string, i: string): string =>
  `CASE WHEN ${indexValid(i)} IS FALSE THEN (pg_catalog.left(${obj}::pg_catalog.text, -1) OPERATOR(pg_catalog.||) ', "invalid" : true}'::pg_catalog.text)::pg_catalog.json ELSE ${obj} END`;

/**
 * A column's attribute options (`a` a pg_attribute row) as its ALTER COLUMN SET (…) gave them, or
 * NULL. PostgreSQL 15.20 keeps a `pg_attver=N` of its own on every column it creates, which SET and
 * RESET ignore and pg_dump does not print: it is no option of the user's, so it is left out
 * (pinned in test/integration/column-options.test.ts).
 */
export const attOptions = (a: string): string =>
  `(SELECT pg_catalog.array_agg(u.o ORDER BY u.n) FROM pg_catalog.unnest(${a}.attoptions) WITH ORDINALITY u(o, n)
    WHERE NOT pg_catalog.starts_with(u.o, 'pg_attver='::pg_catalog.text))`;

/** A routine's (`p`, a pg_proc row) argument types as format_type prints them, `, `-separated; '' for none. */
export const argTypes = (p: string, none = ''): string =>
  `COALESCE((SELECT pg_catalog.string_agg(pg_catalog.format_type(u.t, NULL), ', ' ORDER BY u.ord)
      FROM pg_catalog.unnest(${p}.proargtypes::pg_catalog.oid[]) WITH ORDINALITY AS u(t, ord)), '${none}')`;

/** `schema.name`, each part quoted as needed. */
export const qn = (schema: string, name: string): string =>
  `pg_catalog.quote_ident(${schema}) || '.' || pg_catalog.quote_ident(${name})`;

/** The user's schemas' oids (the `ns` CTE), as an array computed once (an InitPlan). */
export const USER_NS = 'ARRAY(SELECT ns.oid FROM ns)';

/** The object (classid, oid) is not a member of an extension. */
export const notExt = (classid: string, oid: string): string => `NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
      WHERE d.classid = '${classid}'::pg_catalog.regclass::pg_catalog.oid AND d.objid = ${oid} AND d.deptype = 'e')`;

/**
 * The pg_class row `c` is not one of Citus's shards. The catalog query runs with
 * citus.override_table_visibility off (otherwise Citus adds a hidden relation_is_a_known_shard
 * filter to every pg_class scan, ~6 µs a row on every scan), so shards placed on the coordinator
 * are visible and are filtered here: only a relation whose name ends in `_<shardid>` of a known
 * shard is asked about (shard names always end so, even when Citus shortens a long name).
 * So are the shards Citus has left for its deferred cleanup (pg_dist_cleanup, readable by every
 * role: the coordinator's shard a create_distributed_table_concurrently or a split replaced,
 * dropped within citus.defer_shard_delete_interval).
 */
export const notAShard = (c: string): string => {
  const orphans = `UNION ALL SELECT pg_catalog.substring(cl.object_name, '_([0-9]+)$') FROM pg_catalog.pg_dist_cleanup cl WHERE cl.object_type = 1`;
  const orphan = `OR EXISTS (SELECT 1 FROM pg_catalog.pg_dist_cleanup cl WHERE cl.object_type = 1 AND pg_catalog.to_regclass(cl.object_name)::pg_catalog.oid = ${c}.oid)`;
  return `NOT (pg_catalog.substring(${c}.relname, '_([0-9]+)$') IN (SELECT s.shardid::pg_catalog.text FROM pg_catalog.pg_dist_shard s ${orphans})
      AND (pg_catalog.relation_is_a_known_shard(${c}.oid) ${orphan}))`;
};

/**
 * Sessions of this database moving, copying or splitting shards in the foreground
 * (citus_move_shard_placement, citus_copy_shard_placement, a split, rebalance_table_shards): they
 * hold Citus's advisory placement-colocation lock (class 13) in RowExclusive or Exclusive mode, or
 * its shard-move lock (class 16), for as long as they run. pg_locks is readable by every role.
 */
export const MOVES_SQL = `(SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object('pid', l.pid,
      'query', pg_catalog.left(a.query, 120)) ORDER BY l.pid), '[]')
    FROM (SELECT DISTINCT lk.pid FROM pg_catalog.pg_locks lk
      WHERE lk.locktype = 'advisory' AND lk.granted
        AND lk.database = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())
        AND ((lk.objsubid = 13 AND lk.mode IN ('RowExclusiveLock', 'ExclusiveLock')) OR lk.objsubid = 16)
        AND lk.pid <> pg_catalog.pg_backend_pid()) l
    LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid)`;
