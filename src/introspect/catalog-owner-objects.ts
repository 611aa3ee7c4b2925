// The part of the catalog query that reads who owns each object, as an `owner` object of its own
// when another role than the reader (the one that applies) owns it: `owner of relation app.t`,
// created by `ALTER TABLE app.t OWNER TO app_owner`, dropped by `… OWNER TO CURRENT_USER`. The
// relations (tables, partitions, views, materialized views, foreign tables, sequences no column
// owns), routines and aggregates, types and domains, schemas, operators, operator families and
// classes, conversions, collations, text search dictionaries and configurations, statistics
// objects, publications, subscriptions, foreign servers and data wrappers, languages and event triggers. What has no owner of its own is left
// out: an index or a column's sequence (they follow their table), an array or multirange type, a
// table's row type. The public schema owned by pg_database_owner is PostgreSQL 15's default.
import { EXTENSION_RELATION } from './catalog-statistics.js';
import { argTypes, cls, notExt, qn } from './catalog-fragments.js';
import { OPERATOR_NAME } from './catalog-operators.js';
import { CLASS_NAME, FAMILY_NAME } from './catalog-opclasses.js';
import { SUBSCRIPTIONS_HERE } from './catalog-subscriptions.js';
import { NOT_ME } from './catalog-owners.js';
import { BASE_TYPES } from './catalog-base-types.js';
import { SERVER_CODE_HERE } from './catalog-server-code.js';

/**
 * Rows (keyword, class, target, parent, owner): how ALTER … OWNER TO names the object, the class
 * its `owner` object is named by ("relation", "routine", "type", or the keyword in lower case),
 * its name there, the object it belongs to, and its owner's oid.
 */
const OWNED = `
    SELECT CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
      'relation', ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')}, c.relowner
    FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid WHERE ${NOT_ME('c.relowner')}
    UNION ALL
    -- A sequence a column owns follows its table (ALTER SEQUENCE … OWNER TO refuses it).
    SELECT 'SEQUENCE', 'relation', ${qn('ns.nspname', 'sc.relname')}, 'sequence ' || ${qn('ns.nspname', 'sc.relname')}, sc.relowner
    FROM pg_catalog.pg_class sc JOIN ns ON ns.oid = sc.relnamespace
    WHERE sc.relkind = 'S' AND ${NOT_ME('sc.relowner')} AND ${notExt('pg_catalog.pg_class', 'sc.oid')}
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend own WHERE own.classid = ${cls('pg_class')} AND own.objid = sc.oid
        AND own.refclassid = ${cls('pg_class')} AND own.deptype IN ('a', 'i'))
    UNION ALL
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END, 'routine',
      ${qn('ns.nspname', 'p.proname')} || '(' || CASE p.prokind WHEN 'a' THEN ${argTypes('p', '*')} ELSE ${argTypes('p')} END || ')',
      'routine ' || ${qn('ns.nspname', 'p.proname')}, p.proowner
    FROM pg_catalog.pg_proc p JOIN ns ON ns.oid = p.pronamespace
    WHERE p.prokind IN ('f', 'p', 'a', 'w') AND ${NOT_ME('p.proowner')} AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
    UNION ALL
    SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, 'type', ${qn('ns.nspname', 't.typname')},
      'type ' || ${qn('ns.nspname', 't.typname')}, t.typowner
    FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace LEFT JOIN pg_catalog.pg_class tc ON tc.oid = t.typrelid
    WHERE (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND tc.relkind = 'c')) AND ${NOT_ME('t.typowner')} AND ${notExt('pg_catalog.pg_type', 't.oid')}
    UNION ALL
    SELECT 'TYPE', 'type', ${qn('ns.nspname', 't.typname')}, 'type ' || ${qn('ns.nspname', 't.typname')}, t.typowner
    FROM ${BASE_TYPES} AND ${NOT_ME('t.typowner')}
    UNION ALL
    SELECT 'SCHEMA', 'schema', pg_catalog.quote_ident(ns.nspname), NULL, n.nspowner
    FROM ns JOIN pg_catalog.pg_namespace n ON n.oid = ns.oid
    WHERE ${NOT_ME('n.nspowner')} AND NOT (ns.nspname = 'public' AND n.nspowner = (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = 'pg_database_owner'::pg_catalog.name))
    UNION ALL
    SELECT 'OPERATOR', 'operator', ${OPERATOR_NAME}, 'operator ' || ${OPERATOR_NAME}, o.oprowner
    FROM pg_catalog.pg_operator o JOIN ns ON ns.oid = o.oprnamespace WHERE ${NOT_ME('o.oprowner')} AND ${notExt('pg_catalog.pg_operator', 'o.oid')}
    UNION ALL
    SELECT 'OPERATOR FAMILY', 'operator family', ${FAMILY_NAME}, 'operator family ' || ${FAMILY_NAME}, f.opfowner
    FROM pg_catalog.pg_opfamily f JOIN ns ON ns.oid = f.opfnamespace JOIN pg_catalog.pg_am am ON am.oid = f.opfmethod
    WHERE ${NOT_ME('f.opfowner')} AND ${notExt('pg_catalog.pg_opfamily', 'f.oid')}
    UNION ALL
    SELECT 'OPERATOR CLASS', 'operator class', ${CLASS_NAME}, 'operator class ' || ${CLASS_NAME}, c.opcowner
    FROM pg_catalog.pg_opclass c JOIN ns ON ns.oid = c.opcnamespace JOIN pg_catalog.pg_am am ON am.oid = c.opcmethod
    WHERE ${NOT_ME('c.opcowner')} AND ${notExt('pg_catalog.pg_opclass', 'c.oid')}
    UNION ALL
    SELECT 'CONVERSION', 'conversion', ${qn('ns.nspname', 'cv.conname')}, 'conversion ' || ${qn('ns.nspname', 'cv.conname')}, cv.conowner
    FROM pg_catalog.pg_conversion cv JOIN ns ON ns.oid = cv.connamespace WHERE ${NOT_ME('cv.conowner')} AND ${notExt('pg_catalog.pg_conversion', 'cv.oid')}
    UNION ALL
    SELECT 'COLLATION', 'collation', ${qn('ns.nspname', 'co.collname')}, 'collation ' || ${qn('ns.nspname', 'co.collname')}, co.collowner
    FROM pg_catalog.pg_collation co JOIN ns ON ns.oid = co.collnamespace WHERE ${NOT_ME('co.collowner')} AND ${notExt('pg_catalog.pg_collation', 'co.oid')}
    UNION ALL
    SELECT 'TEXT SEARCH DICTIONARY', 'text search dictionary', ${qn('ns.nspname', 'td.dictname')},
      'text search dictionary ' || ${qn('ns.nspname', 'td.dictname')}, td.dictowner
    FROM pg_catalog.pg_ts_dict td JOIN ns ON ns.oid = td.dictnamespace WHERE ${NOT_ME('td.dictowner')} AND ${notExt('pg_catalog.pg_ts_dict', 'td.oid')}
    UNION ALL
    SELECT 'TEXT SEARCH CONFIGURATION', 'text search configuration', ${qn('ns.nspname', 'tc.cfgname')},
      'text search configuration ' || ${qn('ns.nspname', 'tc.cfgname')}, tc.cfgowner
    FROM pg_catalog.pg_ts_config tc JOIN ns ON ns.oid = tc.cfgnamespace WHERE ${NOT_ME('tc.cfgowner')} AND ${notExt('pg_catalog.pg_ts_config', 'tc.oid')}
    UNION ALL
    SELECT 'STATISTICS', 'statistics', ${qn('sn.nspname', 's.stxname')}, 'statistics ' || ${qn('sn.nspname', 's.stxname')}, s.stxowner
    FROM pg_catalog.pg_statistic_ext s JOIN pg_catalog.pg_namespace sn ON sn.oid = s.stxnamespace WHERE ${NOT_ME('s.stxowner')}
      AND (EXISTS (SELECT 1 FROM anyrel r WHERE r.oid = s.stxrelid) OR ${EXTENSION_RELATION('s.stxrelid')})
    UNION ALL
    SELECT 'PUBLICATION', 'publication', pg_catalog.quote_ident(p.pubname), 'publication ' || pg_catalog.quote_ident(p.pubname), p.pubowner
    FROM pg_catalog.pg_publication p WHERE ${NOT_ME('p.pubowner')}
    UNION ALL
    SELECT 'SUBSCRIPTION', 'subscription', pg_catalog.quote_ident(s.subname), 'subscription ' || pg_catalog.quote_ident(s.subname), s.subowner
    FROM pg_catalog.pg_subscription s WHERE ${NOT_ME('s.subowner')} AND ${SUBSCRIPTIONS_HERE}
    UNION ALL
    SELECT 'SERVER', 'server', pg_catalog.quote_ident(s.srvname), 'server ' || pg_catalog.quote_ident(s.srvname), s.srvowner
    FROM pg_catalog.pg_foreign_server s WHERE ${NOT_ME('s.srvowner')} AND ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
    UNION ALL
    SELECT 'FOREIGN DATA WRAPPER', 'foreign data wrapper', pg_catalog.quote_ident(w.fdwname), 'foreign data wrapper ' || pg_catalog.quote_ident(w.fdwname), w.fdwowner
    FROM pg_catalog.pg_foreign_data_wrapper w WHERE ${NOT_ME('w.fdwowner')} AND ${SERVER_CODE_HERE.fdw}
    UNION ALL
    SELECT 'LANGUAGE', 'language', pg_catalog.quote_ident(l.lanname), 'language ' || pg_catalog.quote_ident(l.lanname), l.lanowner
    FROM pg_catalog.pg_language l WHERE ${NOT_ME('l.lanowner')} AND ${SERVER_CODE_HERE.language}
    UNION ALL
    SELECT 'EVENT TRIGGER', 'event trigger', pg_catalog.quote_ident(e.evtname), 'event trigger ' || pg_catalog.quote_ident(e.evtname), e.evtowner
    FROM pg_catalog.pg_event_trigger e WHERE ${NOT_ME('e.evtowner')} AND ${SERVER_CODE_HERE.eventTrigger}`;

/** A UNION ALL branch of the obj CTE (after `me`, `ns` and `anyrel`). */
export const OWNER_OBJECTS = `  UNION ALL
  SELECT 'owner', 'of ' || ow.class || ' ' || ow.target, ow.parent,
    pg_catalog.json_build_array('ALTER ' || ow.keyword || ' ' || ow.target || ' OWNER TO ' || pg_catalog.quote_ident(ro.rolname)),
    pg_catalog.json_build_array('ALTER ' || ow.keyword || ' ' || ow.target || ' OWNER TO CURRENT_USER'),
    NULL, NULL, NULL, NULL
  FROM (${OWNED}
  ) AS ow(keyword, class, target, parent, owner)
  JOIN pg_catalog.pg_roles ro ON ro.oid = ow.owner
`;
