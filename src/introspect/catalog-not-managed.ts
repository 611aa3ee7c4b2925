// The part of the catalog query that names what the model does not hold: every object, or
// option of an object, in the user's schemas that citus-migrate neither plans nor compares.
// A plan lists them ("not managed: 3 triggers, 1 policy…"), so an empty plan never hides a
// difference. It runs inside the one catalog query and uses its `ns` (user schemas) and `rel`
// (user tables) CTEs; extension members are left out, as everywhere in that query, but those a
// role other than a superuser owns (ALTER EXTENSION … ADD hides an object so) are named.

import { quoteIdent } from '../sql/quote.js';
import { cls, notAShard, notExt, qn } from './catalog-fragments.js';
import { MAPPING_NAME, MAPPING_READABLE } from './catalog-foreign.js';
import { EXTENSION_RELATION } from './catalog-statistics.js';

import { NOT_MANAGED_KINDS, type NotManagedKind } from '../model/not-managed.js';
export { NOT_MANAGED_KINDS, type NotManagedKind };

const relName = qn('rel.nspname', 'rel.relname');

// Citus layouts the model does not hold. Range and append distribution (create_distributed_table
// with 'range' or 'append'); more than one placement per shard (citus.shard_replication_factor >
// 1, statement replication); hash shards whose boundaries are not the even split
// create_distributed_table makes for their count (isolate_tenant_to_new_shard,
// citus_split_shard_by_split_points): Citus's CreateShardsWithRoundRobinPolicy gives shard i of n
// [INT32_MIN + i * (2^32 / n), that + 2^32 / n - 1], the last one ending at INT32_MAX.
const CITUS_NOT_MANAGED = `
  -- A Citus table's or its partition's coordinator table in a tablespace: Citus made its shards in
  -- the workers' default one, and refuses ALTER TABLE … SET TABLESPACE on it.
  UNION ALL SELECT 'tablespace', ${qn('r.nspname', 'r.relname')} || ' (' || pg_catalog.quote_ident(ts.spcname) || ': a Citus table, its shards in the workers'' default tablespace)'
    FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid JOIN pg_catalog.pg_tablespace ts ON ts.oid = c.reltablespace
    -- (A Citus table's partitions are Citus tables too.)
    JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid::pg_catalog.oid = r.oid
  -- And a key's index of one, or a partition's copy of its table's index, in a tablespace (an index
  -- made with TABLESPACE says it in its CREATE INDEX: the plan problem citus_tablespace).
  UNION ALL SELECT 'tablespace', ${qn('r.nspname', 'x.relname')} || ' (' || pg_catalog.quote_ident(ts.spcname) || ': an index of a Citus table, its shards'' in the workers'' default tablespace)'
    FROM anyrel r JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid::pg_catalog.oid = r.oid
    JOIN pg_catalog.pg_index i ON i.indrelid = r.oid JOIN pg_catalog.pg_class x ON x.oid = i.indexrelid
    JOIN pg_catalog.pg_tablespace ts ON ts.oid = x.reltablespace
    WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = x.oid AND k.conrelid = r.oid)
      OR EXISTS (SELECT 1 FROM pg_catalog.pg_inherits ih WHERE ih.inhrelid = x.oid)
  UNION ALL SELECT CASE p.partmethod WHEN 'r' THEN 'range-distributed table' ELSE 'append-distributed table' END, ${relName}
    FROM rel JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid::pg_catalog.oid = rel.oid WHERE p.partmethod IN ('r', 'a')
  UNION ALL SELECT 'shard replication', ${relName} || ' (' || pl.n::pg_catalog.text || ' placements per shard)'
    FROM (SELECT x.logicalrelid, pg_catalog.max(x.n) AS n FROM (SELECT s.logicalrelid, pg_catalog.count(*) AS n
            FROM pg_catalog.pg_dist_shard s JOIN pg_catalog.pg_dist_placement pp ON pp.shardid = s.shardid
            GROUP BY s.logicalrelid, s.shardid) x GROUP BY x.logicalrelid) pl
    JOIN rel ON rel.oid = pl.logicalrelid::pg_catalog.oid JOIN pg_catalog.pg_dist_partition p ON p.logicalrelid::pg_catalog.oid = rel.oid
    WHERE p.repmodel <> 't' AND p.partmethod NOT IN ('r', 'a') AND pl.n > 1
  -- The even split checked on the shards create_distributed_table made: a tenant isolated on a
  -- shard of its own (a one-value shard, and the half after it) is the model's (its group's
  -- isolated tenants), each named here as 'shard isolation' until the manifest declares it.
  UNION ALL SELECT 'shard layout', ${relName} || ' (' || b.n::pg_catalog.text || ' shards, not an even split of the hash range)'
    FROM (SELECT s.logicalrelid, pg_catalog.count(*) AS n, pg_catalog.bool_and(s.lo = -2147483648 + s.i * (4294967296 / s.cnt)
            AND (s.isolating OR s.hi = CASE WHEN s.i = s.cnt - 1 THEN 2147483647 ELSE -2147483648 + (s.i + 1) * (4294967296 / s.cnt) - 1 END)) AS even
          FROM (SELECT y.logicalrelid, y.lo, y.hi, y.isolating,
                  pg_catalog.row_number() OVER (PARTITION BY y.logicalrelid ORDER BY y.lo) - 1 AS i,
                  pg_catalog.count(*) OVER (PARTITION BY y.logicalrelid) AS cnt
                FROM (SELECT sh.logicalrelid, sh.shardminvalue::bigint AS lo, sh.shardmaxvalue::bigint AS hi,
                        sh.shardminvalue = sh.shardmaxvalue AS single,
                        pg_catalog.lag(sh.shardminvalue = sh.shardmaxvalue) OVER (PARTITION BY sh.logicalrelid ORDER BY sh.shardminvalue::bigint) AS after_single,
                        pg_catalog.bool_or(sh.shardminvalue = sh.shardmaxvalue) OVER (PARTITION BY sh.logicalrelid) AS isolating
                      FROM pg_catalog.pg_dist_shard sh JOIN pg_catalog.pg_dist_partition hp ON hp.logicalrelid::pg_catalog.oid = sh.logicalrelid::pg_catalog.oid::pg_catalog.oid AND hp.partmethod = 'h') y
                WHERE NOT y.single AND NOT COALESCE(y.after_single, false)) s
          GROUP BY s.logicalrelid) b
    JOIN rel ON rel.oid = b.logicalrelid::pg_catalog.oid WHERE NOT b.even
  UNION ALL SELECT 'shard isolation', ${relName} || ' (hash ' || sh.shardminvalue || ')'
    FROM pg_catalog.pg_dist_shard sh JOIN rel ON rel.oid = sh.logicalrelid::pg_catalog.oid
    JOIN pg_catalog.pg_dist_partition hp ON hp.logicalrelid::pg_catalog.oid = sh.logicalrelid::pg_catalog.oid AND hp.partmethod = 'h'
    WHERE sh.shardminvalue = sh.shardmaxvalue
  -- A sequence Citus distributed (for a table's default) that no Citus table's default uses any
  -- more: the model makes a sequence distributed only through a default, so it would come back local.
  UNION ALL SELECT 'distributed sequence', ${qn('ns.nspname', 'sc.relname')}
    FROM pg_catalog.pg_dist_object o JOIN pg_catalog.pg_class sc ON sc.oid = o.objid AND sc.relkind = 'S'
    JOIN ns ON ns.oid = sc.relnamespace
    WHERE o.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid AND ${notExt('pg_catalog.pg_class', 'sc.oid')}
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_attrdef ad ON ad.oid = d.objid
            JOIN pg_catalog.pg_dist_partition dp ON dp.logicalrelid::pg_catalog.oid = ad.adrelid
          WHERE d.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass::pg_catalog.oid AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
            AND d.refobjid = sc.oid)`;

// A text literal, typed: both operands of every operator in what follows have their exact built-in types.
const t = (text: string): string => `'${text}'::pg_catalog.text`;
const kind = (c: string, code: string): string => `${c} = ${t(code)}::pg_catalog."char"`;
const catalog = (name: string): string => `${cls(name)}::pg_catalog.oid`;

// Kinds the database's users (not extensions) create that the model does not hold: the types,
// tables and columns options, and the objects of PostgreSQL 15 in no other list.
const USER_OBJECTS = `
  -- (Base types and lone shell types are managed: catalog-base-types.ts.)
  -- CREATE TABLE … OF type is managed (a table's of_type).
  -- A column's COMPRESSION and attribute options (n_distinct) are managed (the model's columns).
  -- (A table's, partition's, index's and materialized view's tablespace is managed:
  -- catalog-relation-settings.ts, catalog-indexes.ts; so is an owned sequence's persistence.)
  -- (Operator classes and families are managed: catalog-opclasses.ts.)
  -- (Text search parsers and templates are managed: catalog-text-search.ts.)
  -- A user mapping whose options this role may not read (the others are managed: catalog-foreign.ts).
  UNION ALL SELECT 'user mapping', ${MAPPING_NAME}
    FROM pg_catalog.pg_user_mappings um JOIN pg_catalog.pg_foreign_server ums ON ums.oid = um.srvid
    WHERE NOT ${MAPPING_READABLE}
  -- A foreign server is managed (catalog-foreign.ts), not its privileges (GRANT USAGE ON FOREIGN SERVER).
  -- What a role added to an extension it created (ALTER EXTENSION … ADD FUNCTION, a trusted
  -- extension's owner may): every query leaves extension members out, but the script of an
  -- extension runs as a superuser, so a member a role other than a superuser owns was not its script's.
  UNION ALL SELECT 'extension member', pg_catalog.pg_describe_object(d.classid, d.objid, 0) || ${t(' (extension ')}
         || pg_catalog.quote_ident(e.extname) || ${t(', owned by ')} || pg_catalog.quote_ident(ow.rolname) || ${t(')')}
    FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_depend d ON d.refclassid = ${catalog('pg_extension')} AND d.refobjid = e.oid AND ${kind('d.deptype', 'e')}
    LEFT JOIN pg_catalog.pg_proc mp ON d.classid = ${catalog('pg_proc')} AND mp.oid = d.objid
    LEFT JOIN pg_catalog.pg_class mc ON d.classid = ${catalog('pg_class')} AND mc.oid = d.objid
    LEFT JOIN pg_catalog.pg_type mt ON d.classid = ${catalog('pg_type')} AND mt.oid = d.objid
    LEFT JOIN pg_catalog.pg_operator mo ON d.classid = ${catalog('pg_operator')} AND mo.oid = d.objid
    JOIN pg_catalog.pg_roles ow ON ow.oid = COALESCE(mp.proowner, mc.relowner, mt.typowner, mo.oprowner)
    WHERE NOT ow.rolsuper`;

/** The privileges `owner` lacks on an object of ACL `acl` and acldefault kind `k`, as text, or NULL. */
const ownerLacks = (acl: string, owner: string, k: string): string =>
  `(SELECT pg_catalog.string_agg(d.privilege_type, ', ' ORDER BY d.privilege_type) FROM pg_catalog.aclexplode(pg_catalog.acldefault('${k}'::pg_catalog."char", ${owner})) d
      WHERE d.grantee = ${owner} AND NOT EXISTS (SELECT 1 FROM pg_catalog.aclexplode(${acl}) e WHERE e.grantee = ${owner} AND e.privilege_type = d.privilege_type))`;
const OWNER_PRIVILEGES = (
  citus: boolean,
): string => `  UNION ALL SELECT 'owner privileges', ${qn('ns.nspname', 'c.relname')} || ' (its owner lacks ' || ${ownerLacks('c.relacl', 'c.relowner', 'r')} || ')'
    FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
    WHERE c.relacl IS NOT NULL AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.oid NOT IN (SELECT oid FROM anyrel) AND ${notExt('pg_catalog.pg_class', 'c.oid')}${citus ? ` AND ${notAShard('c')}` : ''}
      AND ${ownerLacks('c.relacl', 'c.relowner', 'r')} IS NOT NULL`;

/** A SELECT of (kind, name) rows: what exists in the user's schemas and the model does not hold. */
export const NOT_MANAGED_SQL = (citus: boolean): string => `
  SELECT CASE c.relkind WHEN 'f' THEN 'foreign table' ELSE 'partition' END,
         ${qn('ns.nspname', 'c.relname')}
    FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
    -- A partition at any level (in any schema) is managed (catalog-sql.ts's prt): an anti-join,
    -- not a subquery in the filter (the planner would then run the costly shard test first on every row).
    LEFT JOIN prt pp ON pp.oid = c.oid
    -- A foreign table is managed (frel, catalog-foreign.ts: one that inherits too), and a foreign
    -- partition (prt): what is left is a foreign table an extension made. An anti-join too: inside the OR, its test made the planner run the
    -- shard test first on every pg_class row (+330 ms at perf:plan's scale).
    LEFT JOIN frel fr ON fr.oid = c.oid
    WHERE (c.relkind = 'f' OR (c.relkind IN ('r', 'p') AND c.relispartition)) AND pp.oid IS NULL AND fr.oid IS NULL
      AND ${notExt('pg_catalog.pg_class', 'c.oid')}${citus ? ` AND ${notAShard('c')}` : ''}
  -- INHERITS between the model's tables is managed; from a table it does not hold (a foreign
  -- table, an extension's) is named.
  UNION ALL SELECT 'table inheritance', ${relName} || ' (from ' || ${qn('pn.nspname', 'pc.relname')} || ')'
    FROM rel JOIN pg_catalog.pg_inherits i ON i.inhrelid = rel.oid
    JOIN pg_catalog.pg_class pc ON pc.oid = i.inhparent JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace
    LEFT JOIN rel pr ON pr.oid = i.inhparent WHERE pr.oid IS NULL
  -- (An inherited column's own SET STATISTICS, attribute options and SET STORAGE are managed: inherited_columns.)
  -- (A partition's own COMPRESSION and a materialized view's are managed: catalog-partition-columns.ts.)
  -- (A table's own storage parameters are managed: the model's storageParameters.)
  -- (A table's or partition's access method is managed: the model's accessMethod.)
  -- (A partition's own storage parameters are managed too: the model's partitions.)
  -- (ALTER TRIGGER … DEPENDS ON EXTENSION is part of the trigger's object: catalog-objects.ts.)
  -- A key's DEFERRABLE / INITIALLY DEFERRED, NOT VALID, MATCH FULL and NULLS NOT DISTINCT are managed
  -- (the model's keys and foreign keys; MATCH PARTIAL PostgreSQL does not implement).
  -- (An identity column's sequence is in its table's schema: PostgreSQL refuses another, and to
  -- move it there, "cannot move an owned sequence into another schema". Its name is managed.)
  UNION ALL SELECT 'foreign key to a partition', ${relName} || '.' || pg_catalog.quote_ident(co.conname)
    FROM pg_catalog.pg_constraint co JOIN rel ON rel.oid = co.conrelid JOIN pg_catalog.pg_class rc ON rc.oid = co.confrelid
    WHERE co.contype = 'f' AND co.conparentid = 0::pg_catalog.oid AND rc.relispartition
  -- What a managed partition holds of its own that the model does not (its own indexes, keys,
  -- CHECKs, triggers, column defaults and NOT NULLs, comments and grants are objects:
  -- catalog-objects.ts's anyrel).
  -- An owner that revoked privileges of its own (REVOKE DELETE ON t FROM owner) is managed for what
  -- the privileges query reads (catalog-privileges.ts: tables, views, sequences, schemas, functions,
  -- procedures, types, servers); on what it does not (aggregates, a relation outside the model's), named.
${OWNER_PRIVILEGES(citus)}
  -- (A view column's default is managed: catalog-partition-columns.ts; a function's, procedure's,
  -- index's or materialized view's DEPENDS ON EXTENSION too: catalog-extension-dependencies.ts.)
  -- A shell operator (a COMMUTATOR or NEGATOR named before it was created, never filled in).
  UNION ALL SELECT 'operator', pg_catalog.quote_ident(ns.nspname) || '.' || o.oprname::pg_catalog.text || ' (shell)'
    FROM pg_catalog.pg_operator o JOIN ns ON ns.oid = o.oprnamespace WHERE o.oprcode::pg_catalog.oid = 0::pg_catalog.oid AND ${notExt('pg_catalog.pg_operator', 'o.oid')}
  -- Statistics on a relation the model does not hold: those on its tables, materialized views and
  -- foreign tables, and on an extension's tables, are objects (catalog-statistics.ts); a Citus
  -- shard's (on the coordinator) are its table's.
  UNION ALL SELECT 'statistics object', ${qn('ns.nspname', 's.stxname')} FROM pg_catalog.pg_statistic_ext s JOIN ns ON ns.oid = s.stxnamespace
    JOIN pg_catalog.pg_class sc ON sc.oid = s.stxrelid WHERE NOT EXISTS (SELECT 1 FROM anyrel r WHERE r.oid = s.stxrelid)
      AND NOT ${EXTENSION_RELATION('s.stxrelid')} AND ${notExt('pg_catalog.pg_statistic_ext', 's.oid')}${citus ? ` AND ${notAShard('sc')}` : ''}
${USER_OBJECTS}${citus ? CITUS_NOT_MANAGED : ''}`;

/** The schemas some of `items` live in (their names are qualified by the quoted schema name). */
export function schemasHolding(schemas: readonly string[], items: readonly { name: string }[]): string[] {
  return schemas.filter((s) => items.some((x) => x.name.startsWith(`${quoteIdent(s)}.`)));
}
