// The part of the catalog query that names what the model does not hold: every object, or
// option of an object, in the user's schemas that citus-migrate neither plans nor compares.
// A plan lists them ("not managed: 3 triggers, 1 policy…"), so an empty plan never hides a
// difference. It runs inside the one catalog query and uses its `ns` (user schemas) and `rel`
// (user tables) CTEs; extension members are left out, as everywhere in that query.

import { quoteIdent } from '../sql/quote.js';
import { notAShard, notExt, qn } from './catalog-fragments.js';
import { MANAGED_AGGREGATE } from './catalog-objects.js';

/** Kinds this query reports, in the order a plan lists them. */
export const NOT_MANAGED_KINDS = [
  'foreign table',
  'partition',
  'table inheritance',
  'table access method',
  'table storage options',
  'constraint option',
  'identity sequence name',
  'foreign key to a partition',
  'partition policy',
  'range type',
  'aggregate',
  'window function',
  'procedural language',
  'foreign data wrapper',
  'foreign server',
  'collation',
  'operator',
  'statistics object',
  'event trigger',
  'publication',
  'range-distributed table',
  'append-distributed table',
  'shard replication',
  'shard layout',
  'distributed sequence',
  'subscription',
] as const;
export type NotManagedKind = (typeof NOT_MANAGED_KINDS)[number];

const relName = qn('rel.nspname', 'rel.relname');

// Citus layouts the model does not hold. Range and append distribution (create_distributed_table
// with 'range' or 'append'); more than one placement per shard (citus.shard_replication_factor >
// 1, statement replication); hash shards whose boundaries are not the even split
// create_distributed_table makes for their count (isolate_tenant_to_new_shard,
// citus_split_shard_by_split_points): Citus's CreateShardsWithRoundRobinPolicy gives shard i of n
// [INT32_MIN + i * (2^32 / n), that + 2^32 / n - 1], the last one ending at INT32_MAX.
const CITUS_NOT_MANAGED = `
  UNION ALL SELECT CASE p.partmethod WHEN 'r' THEN 'range-distributed table' ELSE 'append-distributed table' END, ${relName}
    FROM rel JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid = rel.oid WHERE p.partmethod IN ('r', 'a')
  UNION ALL SELECT 'shard replication', ${relName} || ' (' || pl.n || ' placements per shard)'
    FROM (SELECT x.logicalrelid, pg_catalog.max(x.n) AS n FROM (SELECT s.logicalrelid, pg_catalog.count(*) AS n
            FROM pg_catalog.pg_dist_shard s JOIN pg_catalog.pg_dist_placement pp ON pp.shardid = s.shardid
            GROUP BY s.logicalrelid, s.shardid) x GROUP BY x.logicalrelid) pl
    JOIN rel ON rel.oid = pl.logicalrelid JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid = rel.oid
    WHERE p.repmodel <> 't' AND p.partmethod NOT IN ('r', 'a') AND pl.n > 1
  UNION ALL SELECT 'shard layout', ${relName} || ' (' || b.n || ' shards, not an even split of the hash range)'
    FROM (SELECT s.logicalrelid, pg_catalog.count(*) AS n, pg_catalog.bool_and(s.lo = -2147483648 + s.i * (4294967296 / s.cnt)
            AND s.hi = CASE WHEN s.i = s.cnt - 1 THEN 2147483647 ELSE -2147483648 + (s.i + 1) * (4294967296 / s.cnt) - 1 END) AS even
          FROM (SELECT sh.logicalrelid, sh.shardminvalue::bigint AS lo, sh.shardmaxvalue::bigint AS hi,
                  pg_catalog.row_number() OVER (PARTITION BY sh.logicalrelid ORDER BY sh.shardminvalue::bigint) - 1 AS i,
                  pg_catalog.count(*) OVER (PARTITION BY sh.logicalrelid) AS cnt
                FROM pg_catalog.pg_dist_shard sh JOIN pg_catalog.pg_dist_partition hp ON hp.logicalrelid = sh.logicalrelid AND hp.partmethod = 'h') s
          GROUP BY s.logicalrelid) b
    JOIN rel ON rel.oid = b.logicalrelid WHERE NOT b.even
  -- A sequence Citus distributed (for a table's default) that no Citus table's default uses any
  -- more: the model makes a sequence distributed only through a default, so it would come back local.
  UNION ALL SELECT 'distributed sequence', ${qn('ns.nspname', 'sc.relname')}
    FROM pg_catalog.pg_dist_object o JOIN pg_catalog.pg_class sc ON sc.oid = o.objid AND sc.relkind = 'S'
    JOIN ns ON ns.oid = sc.relnamespace
    WHERE o.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND ${notExt('pg_catalog.pg_class', 'sc.oid')}
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_attrdef ad ON ad.oid = d.objid
            JOIN pg_catalog.pg_dist_partition dp ON dp.logicalrelid = ad.adrelid
          WHERE d.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
            AND d.refobjid = sc.oid)`;

/** A SELECT of (kind, name) rows: what exists in the user's schemas and the model does not hold. */
export const NOT_MANAGED_SQL = (citus: boolean): string => `
  SELECT CASE c.relkind WHEN 'f' THEN 'foreign table' ELSE 'partition' END,
         ${qn('ns.nspname', 'c.relname')}
    FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
    -- A leaf partition in its parent's schema is managed (catalog-sql.ts's parts): an anti-join, not
    -- a subquery in the filter (the planner would then run the costly shard test first on every row).
    LEFT JOIN pg_catalog.pg_inherits pi ON pi.inhrelid = c.oid AND c.relkind = 'r'
    LEFT JOIN rel pp ON pp.oid = pi.inhparent AND pp.relnamespace = c.relnamespace
    WHERE (c.relkind = 'f' OR (c.relkind IN ('r', 'p') AND c.relispartition)) AND pp.oid IS NULL
      AND ${notExt('pg_catalog.pg_class', 'c.oid')}${citus ? ` AND ${notAShard('c')}` : ''}
  UNION ALL SELECT 'table inheritance', ${relName} FROM rel JOIN pg_catalog.pg_inherits i ON i.inhrelid = rel.oid
  UNION ALL SELECT CASE WHEN rel.relam <> 0 AND rel.relam NOT IN (SELECT oid FROM pg_catalog.pg_am WHERE amname IN ('heap', 'columnar')) THEN 'table access method'
         ELSE 'table storage options' END, ${relName}
    FROM rel WHERE rel.reloptions IS NOT NULL
      OR (rel.relam <> 0 AND rel.relam NOT IN (SELECT oid FROM pg_catalog.pg_am WHERE amname IN ('heap', 'columnar')))
  -- A partition's own storage options (a leaf partition is managed through its parent, its options are not).
  UNION ALL SELECT 'table storage options', ${qn('ns.nspname', 'pc.relname')}
    FROM pg_catalog.pg_inherits pi JOIN rel ON rel.oid = pi.inhparent JOIN pg_catalog.pg_class pc ON pc.oid = pi.inhrelid
    JOIN ns ON ns.oid = pc.relnamespace WHERE pc.reloptions IS NOT NULL
  -- DEFERRABLE / INITIALLY DEFERRED and NOT VALID are managed (the model's keys and foreign keys).
  UNION ALL SELECT 'constraint option', ${relName} || '.' || pg_catalog.quote_ident(co.conname) || ' (' || pg_catalog.concat_ws(', ',
         CASE WHEN co.contype = 'f' AND co.confmatchtype <> 's' THEN 'MATCH ' || CASE co.confmatchtype WHEN 'f' THEN 'FULL' ELSE 'PARTIAL' END END,
         CASE WHEN i.indnullsnotdistinct THEN 'NULLS NOT DISTINCT' END, NULL) || ')'
    FROM pg_catalog.pg_constraint co JOIN rel ON rel.oid = co.conrelid
    LEFT JOIN pg_catalog.pg_index i ON i.indexrelid = co.conindid AND co.contype IN ('p', 'u')
    WHERE co.contype IN ('p', 'u', 'f') AND ((co.contype = 'f' AND co.confmatchtype <> 's') OR COALESCE(i.indnullsnotdistinct, false))
  -- An identity column's sequence under another name than CREATE TABLE gives it (<table>_<column>_seq
  -- where that fits in 63 bytes; SEQUENCE NAME, or renamed): created from the manifest, it would get that one.
  UNION ALL SELECT 'identity sequence name', ${relName} || '.' || pg_catalog.quote_ident(a.attname) || ' (' || ${qn('sn.nspname', 'sc.relname')} || ')'
    FROM rel JOIN pg_catalog.pg_attribute a ON a.attrelid = rel.oid AND a.attidentity <> '' AND NOT a.attisdropped
    JOIN pg_catalog.pg_depend d ON d.refobjid = rel.oid AND d.refobjsubid = a.attnum AND d.deptype = 'i'
      AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
    JOIN pg_catalog.pg_class sc ON sc.oid = d.objid JOIN pg_catalog.pg_namespace sn ON sn.oid = sc.relnamespace
    WHERE sc.relnamespace <> rel.relnamespace OR (sc.relname::pg_catalog.text <> rel.relname || '_' || a.attname || '_seq'
      AND pg_catalog.octet_length(rel.relname || '_' || a.attname || '_seq') <= 63)
  UNION ALL SELECT 'foreign key to a partition', ${relName} || '.' || pg_catalog.quote_ident(co.conname)
    FROM pg_catalog.pg_constraint co JOIN rel ON rel.oid = co.conrelid JOIN pg_catalog.pg_class rc ON rc.oid = co.confrelid
    WHERE co.contype = 'f' AND co.conparentid = 0 AND rc.relispartition
  -- What a managed partition holds of its own that the model does not (its own indexes, keys,
  -- CHECKs, triggers, column defaults and NOT NULLs, comments and grants are objects:
  -- catalog-objects.ts's anyrel).
  UNION ALL SELECT 'partition policy', ${qn('r.nspname', 'r.relname')} || COALESCE('.' || pg_catalog.quote_ident(p.polname), ' (row level security)')
    FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid LEFT JOIN pg_catalog.pg_policy p ON p.polrelid = r.oid
    WHERE r.ispart AND (p.oid IS NOT NULL OR c.relrowsecurity OR c.relforcerowsecurity)
  UNION ALL SELECT 'range type', ${qn('ns.nspname', 't.typname')}
    FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace
    WHERE t.typtype = 'r' AND ${notExt('pg_catalog.pg_type', 't.oid')}
  UNION ALL SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'window function' END, ${qn('ns.nspname', 'p.proname')} || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')'
    FROM pg_catalog.pg_proc p JOIN ns ON ns.oid = p.pronamespace LEFT JOIN pg_catalog.pg_aggregate ag ON ag.aggfnoid = p.oid
    WHERE p.prokind IN ('a', 'w') AND NOT (${MANAGED_AGGREGATE}) AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
  UNION ALL SELECT 'procedural language', pg_catalog.quote_ident(l.lanname) FROM pg_catalog.pg_language l
    WHERE l.lanispl AND l.lanname <> 'plpgsql' AND ${notExt('pg_catalog.pg_language', 'l.oid')}
  UNION ALL SELECT 'foreign data wrapper', pg_catalog.quote_ident(w.fdwname) FROM pg_catalog.pg_foreign_data_wrapper w
    WHERE ${notExt('pg_catalog.pg_foreign_data_wrapper', 'w.oid')}
  UNION ALL SELECT 'foreign server', pg_catalog.quote_ident(s.srvname) FROM pg_catalog.pg_foreign_server s
    WHERE ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
  UNION ALL SELECT 'collation', ${qn('ns.nspname', 'c.collname')} FROM pg_catalog.pg_collation c JOIN ns ON ns.oid = c.collnamespace
    WHERE ${notExt('pg_catalog.pg_collation', 'c.oid')}
  -- A shell operator (a COMMUTATOR or NEGATOR named before it was created, never filled in).
  UNION ALL SELECT 'operator', pg_catalog.quote_ident(ns.nspname) || '.' || o.oprname || ' (shell)'
    FROM pg_catalog.pg_operator o JOIN ns ON ns.oid = o.oprnamespace WHERE o.oprcode = 0 AND ${notExt('pg_catalog.pg_operator', 'o.oid')}
  UNION ALL SELECT 'statistics object', ${qn('ns.nspname', 's.stxname')} FROM pg_catalog.pg_statistic_ext s JOIN ns ON ns.oid = s.stxnamespace
  UNION ALL SELECT 'event trigger', pg_catalog.quote_ident(e.evtname) FROM pg_catalog.pg_event_trigger e
    WHERE ${notExt('pg_catalog.pg_event_trigger', 'e.oid')}
  UNION ALL SELECT 'publication', pg_catalog.quote_ident(p.pubname) FROM pg_catalog.pg_publication p
  -- Subscriptions belong to one database (pg_subscription is shared); subname is readable by every role.
  UNION ALL SELECT 'subscription', pg_catalog.quote_ident(s.subname) FROM pg_catalog.pg_subscription s
    WHERE s.subdbid = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())${citus ? CITUS_NOT_MANAGED : ''}`;

/** The schemas some of `items` live in (their names are qualified by the quoted schema name). */
export function schemasHolding(schemas: readonly string[], items: readonly { name: string }[]): string[] {
  return schemas.filter((s) => items.some((x) => x.name.startsWith(`${quoteIdent(s)}.`)));
}
