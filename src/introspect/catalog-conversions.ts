// The parts of the catalog query (catalog-more-objects.ts) that read the user's encoding
// conversions (CREATE [DEFAULT] CONVERSION) as objects defined by SQL, written as pg_dump writes
// them: the encodings by name and the function always qualified (PostgreSQL's own are
// pg_catalog's). Citus does not propagate CREATE CONVERSION: it is made on the coordinator, where
// clients' encodings are converted (docs/citus-facts.md).
import { cls, notExt, qn } from './catalog-fragments.js';

const NAME = qn('ns.nspname', 'cv.conname');
const FROM = `pg_catalog.pg_conversion cv JOIN ns ON ns.oid = cv.connamespace`;

/** A UNION ALL branch of the obj CTE. */
export const CONVERSION_OBJECTS = `  UNION ALL
  SELECT 'conversion', ${NAME}, NULL,
    pg_catalog.json_build_array('CREATE ' || CASE WHEN cv.condefault THEN 'DEFAULT ' ELSE '' END || 'CONVERSION ' || ${NAME}
      || ' FOR ' || pg_catalog.quote_literal(pg_catalog.pg_encoding_to_char(cv.conforencoding))
      || ' TO ' || pg_catalog.quote_literal(pg_catalog.pg_encoding_to_char(cv.contoencoding))
      || ' FROM ' || (SELECT ${qn('pn.nspname', 'p.proname')} FROM pg_catalog.pg_proc p
           JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace WHERE p.oid = cv.conproc::pg_catalog.oid)),
    pg_catalog.json_build_array('DROP CONVERSION ' || ${NAME}),
    ${cls('pg_conversion')}, cv.oid, NULL, NULL
  FROM ${FROM}
  WHERE ${notExt('pg_catalog.pg_conversion', 'cv.oid')}
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const CONVERSION_COMMENTS = `    UNION ALL
    SELECT 'CONVERSION', ${NAME}, 'conversion ' || ${NAME}, d.description
    FROM pg_catalog.pg_description d JOIN ${FROM} ON cv.oid = d.objoid AND d.classoid = ${cls('pg_conversion')}
    WHERE ${notExt('pg_catalog.pg_conversion', 'cv.oid')}
`;
