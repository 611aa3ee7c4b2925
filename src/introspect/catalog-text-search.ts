// The parts of the catalog query (catalog-more-objects.ts) that read the user's text search
// dictionaries and configurations as objects defined by SQL, written as pg_dump writes them:
// CREATE TEXT SEARCH DICTIONARY d (TEMPLATE = t, its options), CREATE TEXT SEARCH CONFIGURATION c
// (PARSER = p) and one ALTER TEXT SEARCH CONFIGURATION c ADD MAPPING FOR <token> WITH d1, d2 per
// token type it maps. Citus propagates both to the workers. Parsers and templates (CREATE TEXT
// SEARCH PARSER p (START = f, GETTOKEN = f, END = f, LEXTYPES = f [, HEADLINE = f]), CREATE TEXT
// SEARCH TEMPLATE t ([INIT = f,] LEXIZE = f)), their functions as regproc prints them with
// search_path = public; Citus propagates neither.
import { cls, notExt, qn, regprocText as fn } from './catalog-fragments.js';

const DICT = qn('ns.nspname', 'td.dictname');
const CONFIG = qn('ns.nspname', 'c.cfgname');
const PARSER = qn('ns.nspname', 'x.prsname');
const TEMPLATE = qn('ns.nspname', 'x.tmplname');
const PARSERS = `pg_catalog.pg_ts_parser x JOIN ns ON ns.oid = x.prsnamespace WHERE ${notExt('pg_catalog.pg_ts_parser', 'x.oid')}`;
const TEMPLATES = `pg_catalog.pg_ts_template x JOIN ns ON ns.oid = x.tmplnamespace WHERE ${notExt('pg_catalog.pg_ts_template', 'x.oid')}`;

/** UNION ALL branches of the obj CTE. */
export const TEXT_SEARCH_OBJECTS = `  UNION ALL
  SELECT 'text search parser', ${PARSER}, NULL,
    pg_catalog.json_build_array('CREATE TEXT SEARCH PARSER ' || ${PARSER} || ' (START = ' || ${fn('x.prsstart')}
      || ', GETTOKEN = ' || ${fn('x.prstoken')} || ', END = ' || ${fn('x.prsend')} || ', LEXTYPES = ' || ${fn('x.prslextype')}
      || CASE WHEN x.prsheadline::pg_catalog.oid OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN ', HEADLINE = ' || ${fn('x.prsheadline')} ELSE '' END || ')'),
    pg_catalog.json_build_array('DROP TEXT SEARCH PARSER ' || ${PARSER}),
    ${cls('pg_ts_parser')}, x.oid, NULL, NULL
  FROM ${PARSERS}
  UNION ALL
  SELECT 'text search template', ${TEMPLATE}, NULL,
    pg_catalog.json_build_array('CREATE TEXT SEARCH TEMPLATE ' || ${TEMPLATE} || ' ('
      || CASE WHEN x.tmplinit::pg_catalog.oid OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN 'INIT = ' || ${fn('x.tmplinit')} || ', ' ELSE '' END
      || 'LEXIZE = ' || ${fn('x.tmpllexize')} || ')'),
    pg_catalog.json_build_array('DROP TEXT SEARCH TEMPLATE ' || ${TEMPLATE}),
    ${cls('pg_ts_template')}, x.oid, NULL, NULL
  FROM ${TEMPLATES}
  UNION ALL
  SELECT 'text search dictionary', ${DICT}, NULL,
    pg_catalog.json_build_array('CREATE TEXT SEARCH DICTIONARY ' || ${DICT} || ' (TEMPLATE = ' || ${qn('tn.nspname', 'tm.tmplname')}
      || COALESCE(', ' || td.dictinitoption, '') || ')'),
    pg_catalog.json_build_array('DROP TEXT SEARCH DICTIONARY ' || ${DICT}),
    ${cls('pg_ts_dict')}, td.oid, NULL, NULL
  FROM pg_catalog.pg_ts_dict td JOIN ns ON ns.oid = td.dictnamespace
  JOIN pg_catalog.pg_ts_template tm ON tm.oid = td.dicttemplate JOIN pg_catalog.pg_namespace tn ON tn.oid = tm.tmplnamespace
  WHERE ${notExt('pg_catalog.pg_ts_dict', 'td.oid')}
  UNION ALL
  SELECT 'text search configuration', ${CONFIG}, NULL,
    (SELECT pg_catalog.json_agg(x.stmt ORDER BY x.ord) FROM (
      SELECT -1 AS ord, 'CREATE TEXT SEARCH CONFIGURATION ' || ${CONFIG} || ' (PARSER = ' || ${qn('pn.nspname', 'p.prsname')} || ')' AS stmt
      UNION ALL
      SELECT m.maptokentype, 'ALTER TEXT SEARCH CONFIGURATION ' || ${CONFIG} || ' ADD MAPPING FOR ' || tt.alias || ' WITH '
        || pg_catalog.string_agg(m.mapdict::pg_catalog.regdictionary::pg_catalog.text, ', ' ORDER BY m.mapseqno)
      FROM pg_catalog.pg_ts_config_map m JOIN pg_catalog.ts_token_type(c.cfgparser) tt ON tt.tokid = m.maptokentype
      WHERE m.mapcfg = c.oid GROUP BY m.maptokentype, tt.alias) x),
    pg_catalog.json_build_array('DROP TEXT SEARCH CONFIGURATION ' || ${CONFIG}),
    ${cls('pg_ts_config')}, c.oid, NULL, NULL
  FROM pg_catalog.pg_ts_config c JOIN ns ON ns.oid = c.cfgnamespace
  JOIN pg_catalog.pg_ts_parser p ON p.oid = c.cfgparser JOIN pg_catalog.pg_namespace pn ON pn.oid = p.prsnamespace
  WHERE ${notExt('pg_catalog.pg_ts_config', 'c.oid')}
`;

/** UNION ALL branches of the comments (keyword, target, parent, description). */
export const TEXT_SEARCH_COMMENTS = `    UNION ALL
    SELECT 'TEXT SEARCH PARSER', ${PARSER}, 'text search parser ' || ${PARSER}, ds.description
    FROM pg_catalog.pg_description ds, ${PARSERS} AND x.oid = ds.objoid AND ds.classoid = ${cls('pg_ts_parser')}
    UNION ALL
    SELECT 'TEXT SEARCH TEMPLATE', ${TEMPLATE}, 'text search template ' || ${TEMPLATE}, ds.description
    FROM pg_catalog.pg_description ds, ${TEMPLATES} AND x.oid = ds.objoid AND ds.classoid = ${cls('pg_ts_template')}
    UNION ALL
    SELECT 'TEXT SEARCH DICTIONARY', ${DICT}, 'text search dictionary ' || ${DICT}, ds.description
    FROM pg_catalog.pg_description ds JOIN pg_catalog.pg_ts_dict td ON td.oid = ds.objoid AND ds.classoid = ${cls('pg_ts_dict')}
    JOIN ns ON ns.oid = td.dictnamespace WHERE ${notExt('pg_catalog.pg_ts_dict', 'td.oid')}
    UNION ALL
    SELECT 'TEXT SEARCH CONFIGURATION', ${CONFIG}, 'text search configuration ' || ${CONFIG}, ds.description
    FROM pg_catalog.pg_description ds JOIN pg_catalog.pg_ts_config c ON c.oid = ds.objoid AND ds.classoid = ${cls('pg_ts_config')}
    JOIN ns ON ns.oid = c.cfgnamespace WHERE ${notExt('pg_catalog.pg_ts_config', 'c.oid')}
`;
