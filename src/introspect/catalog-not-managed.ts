// The part of the catalog query that names what the model does not hold: every object, or
// option of an object, in the user's schemas that citus-migrate neither plans nor compares.
// A plan lists them ("not managed: 3 triggers, 1 policy…"), so an empty plan never hides a
// difference. It runs inside the one catalog query and uses its `ns` (user schemas) and `rel`
// (user tables) CTEs; extension members are left out, as everywhere in that query.

import { notAShard, notExt, qn } from './catalog-fragments.js';

/** Kinds this query reports, in the order a plan lists them. */
export const NOT_MANAGED_KINDS = [
  'foreign table',
  'partition',
  'table inheritance',
  'table access method',
  'table storage options',
  'rule',
  'constraint option',
  'foreign key to a partition',
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
] as const;
export type NotManagedKind = (typeof NOT_MANAGED_KINDS)[number];

const relName = qn('rel.nspname', 'rel.relname');

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
  UNION ALL SELECT 'rule', ${relName} || '.' || pg_catalog.quote_ident(r.rulename) FROM pg_catalog.pg_rewrite r JOIN rel ON rel.oid = r.ev_class
  -- DEFERRABLE / INITIALLY DEFERRED and NOT VALID are managed (the model's keys and foreign keys).
  UNION ALL SELECT 'constraint option', ${relName} || '.' || pg_catalog.quote_ident(co.conname) || ' (' || pg_catalog.concat_ws(', ',
         CASE WHEN co.contype = 'f' AND co.confmatchtype <> 's' THEN 'MATCH ' || CASE co.confmatchtype WHEN 'f' THEN 'FULL' ELSE 'PARTIAL' END END,
         CASE WHEN i.indnullsnotdistinct THEN 'NULLS NOT DISTINCT' END, NULL) || ')'
    FROM pg_catalog.pg_constraint co JOIN rel ON rel.oid = co.conrelid
    LEFT JOIN pg_catalog.pg_index i ON i.indexrelid = co.conindid AND co.contype IN ('p', 'u')
    WHERE co.contype IN ('p', 'u', 'f') AND ((co.contype = 'f' AND co.confmatchtype <> 's') OR COALESCE(i.indnullsnotdistinct, false))
  UNION ALL SELECT 'foreign key to a partition', ${relName} || '.' || pg_catalog.quote_ident(co.conname)
    FROM pg_catalog.pg_constraint co JOIN rel ON rel.oid = co.conrelid JOIN pg_catalog.pg_class rc ON rc.oid = co.confrelid
    WHERE co.contype = 'f' AND co.conparentid = 0 AND rc.relispartition
  UNION ALL SELECT 'range type', ${qn('ns.nspname', 't.typname')}
    FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace
    WHERE t.typtype = 'r' AND ${notExt('pg_catalog.pg_type', 't.oid')}
  UNION ALL SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'window function' END, ${qn('ns.nspname', 'p.proname')} || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')'
    FROM pg_catalog.pg_proc p JOIN ns ON ns.oid = p.pronamespace WHERE p.prokind IN ('a', 'w') AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
  UNION ALL SELECT 'procedural language', pg_catalog.quote_ident(l.lanname) FROM pg_catalog.pg_language l
    WHERE l.lanispl AND l.lanname <> 'plpgsql' AND ${notExt('pg_catalog.pg_language', 'l.oid')}
  UNION ALL SELECT 'foreign data wrapper', pg_catalog.quote_ident(w.fdwname) FROM pg_catalog.pg_foreign_data_wrapper w
    WHERE ${notExt('pg_catalog.pg_foreign_data_wrapper', 'w.oid')}
  UNION ALL SELECT 'foreign server', pg_catalog.quote_ident(s.srvname) FROM pg_catalog.pg_foreign_server s
    WHERE ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
  UNION ALL SELECT 'collation', ${qn('ns.nspname', 'c.collname')} FROM pg_catalog.pg_collation c JOIN ns ON ns.oid = c.collnamespace
    WHERE ${notExt('pg_catalog.pg_collation', 'c.oid')}
  UNION ALL SELECT 'operator', ${qn('ns.nspname', 'o.oprname')} FROM pg_catalog.pg_operator o JOIN ns ON ns.oid = o.oprnamespace
    WHERE ${notExt('pg_catalog.pg_operator', 'o.oid')}
  UNION ALL SELECT 'statistics object', ${qn('ns.nspname', 's.stxname')} FROM pg_catalog.pg_statistic_ext s JOIN ns ON ns.oid = s.stxnamespace
  UNION ALL SELECT 'event trigger', pg_catalog.quote_ident(e.evtname) FROM pg_catalog.pg_event_trigger e
    WHERE ${notExt('pg_catalog.pg_event_trigger', 'e.oid')}
  UNION ALL SELECT 'publication', pg_catalog.quote_ident(p.pubname) FROM pg_catalog.pg_publication p`;
