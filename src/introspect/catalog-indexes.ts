// The part of the catalog query (catalog-objects.ts's obj rows) that reads indexes as objects
// defined by SQL: every index that is not a constraint's, as pg_get_indexdef prints it, with its
// statistics targets. One that is not valid (a CREATE INDEX CONCURRENTLY that failed: not used,
// its UNIQUE not enforced; a DROP INDEX CONCURRENTLY that stopped half way) is flagged by the
// catalog document's `invalid` and dropped IF EXISTS.
import { cls, indexValid, qn } from './catalog-fragments.js';

/**
 * The index's definition with its TABLESPACE when it is not the database's: pg_get_indexdef leaves
 * it out, and it goes before a partial index's WHERE (the predicate as pg_get_expr prints it, as
 * pg_get_indexdef does). A partitioned table's index made so puts its partitions' indexes there too.
 */
const withTablespace = (def: string): string => `CASE WHEN ic.reltablespace = 0::pg_catalog.oid THEN ${def}
      ELSE (SELECT CASE WHEN i.indpred IS NULL THEN x.d || x.t
          ELSE pg_catalog.left(x.d, pg_catalog.length(x.d) - x.w) || x.t || pg_catalog.right(x.d, x.w) END
        FROM (SELECT ${def}, ' TABLESPACE ' || pg_catalog.quote_ident(its.spcname),
                pg_catalog.length(' WHERE ' || pg_catalog.pg_get_expr(i.indpred, i.indrelid))
              FROM pg_catalog.pg_tablespace its WHERE its.oid = ic.reltablespace) AS x(d, t, w)) END`;

/** A UNION ALL branch of the obj CTE (over its ns and anyrel). */
export const INDEX_OBJECTS = `  UNION ALL
  -- Every index that is not a constraint's: the plain ones a manifest table declares are matched to it in the diff.
  SELECT 'index', ${qn('r.nspname', 'ic.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    -- PostgreSQL prints a partitioned table's index as ON ONLY (pg_dump attaches each partition's
    -- index after): run as written, that would make an invalid index on the parent alone. A valid
    -- one is written without ONLY, which builds (or attaches) the partitions' indexes too.
    (pg_catalog.jsonb_build_array(${withTablespace(`CASE WHEN r.relkind = 'p' AND i.indisvalid
      THEN pg_catalog.replace(pg_catalog.pg_get_indexdef(i.indexrelid), ' ' || pg_catalog.quote_ident(ic.relname) || ' ON ONLY ', ' ' || pg_catalog.quote_ident(ic.relname) || ' ON ')
      ELSE pg_catalog.pg_get_indexdef(i.indexrelid) END`)}) || COALESCE(ist.j, '[]'::pg_catalog.jsonb))::pg_catalog.json,
    -- IF EXISTS when it is not valid: a failed build on a Citus table leaves shards without it,
    -- and Citus passes IF EXISTS on to them (a plain DROP INDEX fails on the first such shard).
    pg_catalog.json_build_array('DROP INDEX ' || CASE WHEN ${indexValid('i')} THEN '' ELSE 'IF EXISTS ' END
      || ${qn('r.nspname', 'ic.relname')}),
    ${cls('pg_class')}, i.indexrelid, NULL, NULL
  FROM pg_catalog.pg_index i JOIN anyrel r ON r.oid = i.indrelid JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
  -- Statistics targets of its expression columns (ALTER INDEX … ALTER COLUMN n SET STATISTICS), after its CREATE.
  LEFT JOIN (SELECT a.attrelid, pg_catalog.jsonb_agg('ALTER INDEX ' || ${qn('sn.nspname', 'sc.relname')} || ' ALTER COLUMN ' || a.attnum::pg_catalog.text
        || ' SET STATISTICS ' || a.attstattarget::pg_catalog.text ORDER BY a.attnum) AS j
      FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class sc ON sc.oid = a.attrelid AND sc.relkind IN ('i', 'I')
      JOIN ns sn ON sn.oid = sc.relnamespace WHERE a.attstattarget >= 0 GROUP BY a.attrelid) ist ON ist.attrelid = i.indexrelid
  WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint kc WHERE kc.conindid = i.indexrelid AND kc.conrelid = i.indrelid AND kc.contype IN ('p', 'u', 'x'))
    -- a partition's index attached to its parent's index comes with the parent's
    AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_inherits ii WHERE ii.inhrelid = i.indexrelid)
`;
