// The parts of the catalog query (catalog-more-objects.ts) that read the user's text search
// dictionaries and configurations as objects defined by SQL, written as pg_dump writes them:
// CREATE TEXT SEARCH DICTIONARY d (TEMPLATE = t, its options), CREATE TEXT SEARCH CONFIGURATION c
// (PARSER = p) and one ALTER TEXT SEARCH CONFIGURATION c ADD MAPPING FOR <token> WITH d1, d2 per
// token type it maps. Citus propagates both to the workers. (Parsers and templates need C
// functions: they are only named, catalog-not-managed.ts.)
import { cls, notExt, qn } from './catalog-fragments.js';

const DICT = qn('ns.nspname', 'td.dictname');
const CONFIG = qn('ns.nspname', 'c.cfgname');

/** UNION ALL branches of the obj CTE. */
export const TEXT_SEARCH_OBJECTS = `  UNION ALL
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
    SELECT 'TEXT SEARCH DICTIONARY', ${DICT}, 'text search dictionary ' || ${DICT}, ds.description
    FROM pg_catalog.pg_description ds JOIN pg_catalog.pg_ts_dict td ON td.oid = ds.objoid AND ds.classoid = ${cls('pg_ts_dict')}
    JOIN ns ON ns.oid = td.dictnamespace WHERE ${notExt('pg_catalog.pg_ts_dict', 'td.oid')}
    UNION ALL
    SELECT 'TEXT SEARCH CONFIGURATION', ${CONFIG}, 'text search configuration ' || ${CONFIG}, ds.description
    FROM pg_catalog.pg_description ds JOIN pg_catalog.pg_ts_config c ON c.oid = ds.objoid AND ds.classoid = ${cls('pg_ts_config')}
    JOIN ns ON ns.oid = c.cfgnamespace WHERE ${notExt('pg_catalog.pg_ts_config', 'c.oid')}
`;
