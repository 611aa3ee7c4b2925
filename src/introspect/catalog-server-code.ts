// The parts of the catalog query (catalog-more-objects.ts) that read the objects built on the
// server's code, as pg_dump writes them: access methods (CREATE ACCESS METHOD … HANDLER),
// foreign data wrappers (CREATE FOREIGN DATA WRAPPER … HANDLER … VALIDATOR … OPTIONS), procedural
// languages (CREATE [TRUSTED] PROCEDURAL LANGUAGE … HANDLER … INLINE … VALIDATOR), transforms
// (CREATE TRANSFORM FOR type LANGUAGE l (FROM SQL WITH FUNCTION …, TO SQL WITH FUNCTION …)) and
// event triggers (CREATE EVENT TRIGGER … ON event WHEN TAG IN (…) EXECUTE FUNCTION f(), then ALTER
// EVENT TRIGGER … DISABLE / ENABLE REPLICA / ENABLE ALWAYS). Their functions are written as
// regproc prints them with search_path = public: PostgreSQL's own and public's unqualified. Those
// an extension made are its own (left out, as everywhere); so are PostgreSQL's (oids below
// 16384). Citus propagates none of them (docs/citus-facts.md): they are the coordinator's.
import { cls, notExt, regprocText as fn } from './catalog-fragments.js';
import { optionsClause as options } from './catalog-foreign.js';

const USERS = (oid: string): string => `${oid} OPERATOR(pg_catalog.>=) 16384::pg_catalog.oid`;
const NOT_ZERO = (oid: string): string => `${oid}::pg_catalog.oid OPERATOR(pg_catalog.<>) 0::pg_catalog.oid`;
const AM = 'pg_catalog.quote_ident(am.amname)';
const FDW = 'pg_catalog.quote_ident(w.fdwname)';
const LANG = 'pg_catalog.quote_ident(l.lanname)';
const EVT = 'pg_catalog.quote_ident(e.evtname)';
/** A transform's name and what CREATE and COMMENT ON name it by: `FOR integer LANGUAGE plpgsql` (lower case in its id). */
const TRANSFORM = `'FOR ' || pg_catalog.format_type(tr.trftype, NULL) || ' LANGUAGE ' || pg_catalog.quote_ident(tl.lanname)`;
const TRANSFORM_ID = `'for ' || pg_catalog.format_type(tr.trftype, NULL) || ' language ' || pg_catalog.quote_ident(tl.lanname)`;
const TRANSFORM_FROM = `pg_catalog.pg_transform tr JOIN pg_catalog.pg_language tl ON tl.oid OPERATOR(pg_catalog.=) tr.trflang`;

const WHERE_AM = `${USERS('am.oid')} AND ${notExt('pg_catalog.pg_am', 'am.oid')}`;
const WHERE_FDW = `${USERS('w.oid')} AND ${notExt('pg_catalog.pg_foreign_data_wrapper', 'w.oid')}`;
const WHERE_LANG = `l.lanispl AND ${USERS('l.oid')} AND ${notExt('pg_catalog.pg_language', 'l.oid')}`;
const WHERE_TRANSFORM = `${USERS('tr.oid')} AND ${notExt('pg_catalog.pg_transform', 'tr.oid')}`;
const EVENT_CREATE = `'CREATE EVENT TRIGGER ' || ${EVT} || ' ON ' || pg_catalog.quote_ident(e.evtevent)
      || CASE WHEN e.evttags IS NULL THEN '' ELSE ' WHEN TAG IN (' || (SELECT pg_catalog.string_agg(pg_catalog.quote_literal(t.tag), ', ' ORDER BY t.n)
           FROM pg_catalog.unnest(e.evttags) WITH ORDINALITY AS t(tag, n)) || ')' END
      || ' EXECUTE FUNCTION ' || ${fn('e.evtfoid')} || '()'`;
const WHERE_EVT = notExt('pg_catalog.pg_event_trigger', 'e.oid');
/** Which rows of their catalogs are the user's (catalog-owner-objects.ts reads their owners). */
export const SERVER_CODE_HERE = { fdw: WHERE_FDW, language: WHERE_LANG, eventTrigger: WHERE_EVT } as const;

/** UNION ALL branches of the obj CTE. */
export const SERVER_CODE_OBJECTS = `  UNION ALL
  SELECT 'access method', ${AM}, NULL,
    pg_catalog.json_build_array('CREATE ACCESS METHOD ' || ${AM} || ' TYPE ' || CASE WHEN am.amtype OPERATOR(pg_catalog.=) 't'::pg_catalog."char" THEN 'TABLE' ELSE 'INDEX' END
      || ' HANDLER ' || ${fn('am.amhandler')}),
    pg_catalog.json_build_array('DROP ACCESS METHOD ' || ${AM}),
    ${cls('pg_am')}, am.oid, NULL, NULL
  FROM pg_catalog.pg_am am WHERE ${WHERE_AM}
  UNION ALL
  SELECT 'foreign data wrapper', ${FDW}, NULL,
    pg_catalog.json_build_array('CREATE FOREIGN DATA WRAPPER ' || ${FDW}
      || CASE WHEN ${NOT_ZERO('w.fdwhandler')} THEN ' HANDLER ' || ${fn('w.fdwhandler')} ELSE '' END
      || CASE WHEN ${NOT_ZERO('w.fdwvalidator')} THEN ' VALIDATOR ' || ${fn('w.fdwvalidator')} ELSE '' END
      || ${options('w.fdwoptions')}),
    pg_catalog.json_build_array('DROP FOREIGN DATA WRAPPER ' || ${FDW}),
    ${cls('pg_foreign_data_wrapper')}, w.oid, NULL, NULL
  FROM pg_catalog.pg_foreign_data_wrapper w WHERE ${WHERE_FDW}
  UNION ALL
  SELECT 'language', ${LANG}, NULL,
    pg_catalog.json_build_array('CREATE ' || CASE WHEN l.lanpltrusted THEN 'TRUSTED ' ELSE '' END || 'PROCEDURAL LANGUAGE ' || ${LANG}
      || ' HANDLER ' || ${fn('l.lanplcallfoid')}
      || CASE WHEN ${NOT_ZERO('l.laninline')} THEN ' INLINE ' || ${fn('l.laninline')} ELSE '' END
      || CASE WHEN ${NOT_ZERO('l.lanvalidator')} THEN ' VALIDATOR ' || ${fn('l.lanvalidator')} ELSE '' END),
    pg_catalog.json_build_array('DROP LANGUAGE ' || ${LANG}),
    ${cls('pg_language')}, l.oid, NULL, NULL
  FROM pg_catalog.pg_language l WHERE ${WHERE_LANG}
  UNION ALL
  SELECT 'transform', ${TRANSFORM_ID}, NULL,
    pg_catalog.json_build_array('CREATE TRANSFORM ' || ${TRANSFORM} || ' ('
      || pg_catalog.concat_ws(', ',
           CASE WHEN ${NOT_ZERO('tr.trffromsql')} THEN 'FROM SQL WITH FUNCTION ' || tr.trffromsql::pg_catalog.regprocedure::pg_catalog.text END,
           CASE WHEN ${NOT_ZERO('tr.trftosql')} THEN 'TO SQL WITH FUNCTION ' || tr.trftosql::pg_catalog.regprocedure::pg_catalog.text END) || ')'),
    pg_catalog.json_build_array('DROP TRANSFORM ' || ${TRANSFORM}),
    ${cls('pg_transform')}, tr.oid, NULL, NULL
  FROM ${TRANSFORM_FROM} WHERE ${WHERE_TRANSFORM}
  UNION ALL
  SELECT 'event trigger', ${EVT}, NULL,
    CASE WHEN e.evtenabled OPERATOR(pg_catalog.=) 'O'::pg_catalog."char" THEN pg_catalog.json_build_array(${EVENT_CREATE})
      ELSE pg_catalog.json_build_array(${EVENT_CREATE}, 'ALTER EVENT TRIGGER ' || ${EVT}
        || CASE e.evtenabled WHEN 'D' THEN ' DISABLE' WHEN 'R' THEN ' ENABLE REPLICA' ELSE ' ENABLE ALWAYS' END) END,
    pg_catalog.json_build_array('DROP EVENT TRIGGER ' || ${EVT}),
    ${cls('pg_event_trigger')}, e.oid, NULL, NULL
  FROM pg_catalog.pg_event_trigger e WHERE ${WHERE_EVT}
`;

/** UNION ALL branches of the comments (keyword, target, parent, description). */
export const SERVER_CODE_COMMENTS = `    UNION ALL
    SELECT 'ACCESS METHOD', ${AM}, 'access method ' || ${AM}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_am am ON am.oid = d.objoid AND d.classoid = ${cls('pg_am')} WHERE ${WHERE_AM}
    UNION ALL
    SELECT 'FOREIGN DATA WRAPPER', ${FDW}, 'foreign data wrapper ' || ${FDW}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = d.objoid AND d.classoid = ${cls('pg_foreign_data_wrapper')} WHERE ${WHERE_FDW}
    UNION ALL
    SELECT 'LANGUAGE', ${LANG}, 'language ' || ${LANG}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_language l ON l.oid = d.objoid AND d.classoid = ${cls('pg_language')} WHERE ${WHERE_LANG}
    UNION ALL
    SELECT 'TRANSFORM', ${TRANSFORM}, 'transform ' || ${TRANSFORM_ID}, d.description
    FROM pg_catalog.pg_description d JOIN ${TRANSFORM_FROM} ON tr.oid = d.objoid AND d.classoid = ${cls('pg_transform')} WHERE ${WHERE_TRANSFORM}
    UNION ALL
    SELECT 'EVENT TRIGGER', ${EVT}, 'event trigger ' || ${EVT}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_event_trigger e ON e.oid = d.objoid AND d.classoid = ${cls('pg_event_trigger')} WHERE ${WHERE_EVT}
`;

/** UNION ALL branches of objdeps: what an object uses of these, by the objects' ids (a server its wrapper). */
export const SERVER_CODE_DEPS = `
    UNION ALL
    SELECT d.classid, d.objid, 'foreign data wrapper ' || ${FDW} FROM objdep d
      JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = d.refobjid WHERE d.refclassid = ${cls('pg_foreign_data_wrapper')} AND ${WHERE_FDW}
    UNION ALL
    SELECT d.classid, d.objid, 'access method ' || ${AM} FROM objdep d
      JOIN pg_catalog.pg_am am ON am.oid = d.refobjid WHERE d.refclassid = ${cls('pg_am')} AND ${WHERE_AM}
    UNION ALL
    SELECT d.classid, d.objid, 'language ' || ${LANG} FROM objdep d
      JOIN pg_catalog.pg_language l ON l.oid = d.refobjid WHERE d.refclassid = ${cls('pg_language')} AND ${WHERE_LANG}`;
