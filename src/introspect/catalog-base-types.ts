// The part of the catalog query (catalog-more-objects.ts) that reads the user's base types as
// objects defined by SQL, written as pg_dump writes them (CREATE TYPE t (INTERNALLENGTH = …,
// INPUT = t_in, OUTPUT = t_out, [RECEIVE …,] …, ALIGNMENT = …, STORAGE = …[, CATEGORY …])), their
// functions as regproc prints them with search_path = public; and lone shell types (CREATE TYPE
// t;). Not an array type of another (PostgreSQL makes it with its element), nor an extension's.
import { cls, notExt, qn, regprocText } from './catalog-fragments.js';

const NAME = qn('ns.nspname', 't.typname');
const fn = (oid: string, label: string): string =>
  `CASE WHEN ${oid}::pg_catalog.oid OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN '${label} = ' || ${regprocText(oid)} END`;
const is = (col: string, v: string): string => `${col} OPERATOR(pg_catalog.=) '${v}'::pg_catalog."char"`;
/** A user's base type (not an array of another) or a lone shell type: the rows of pg_type read here. */
export const BASE_TYPES = `pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace
  WHERE (${is('t.typtype', 'b')} OR NOT t.typisdefined) AND ${notExt('pg_catalog.pg_type', 't.oid')}
    AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_type el WHERE el.typarray OPERATOR(pg_catalog.=) t.oid)`;

const DEFINITION = `'CREATE TYPE ' || ${NAME} || ' (' || pg_catalog.concat_ws(', ',
      'INTERNALLENGTH = ' || CASE WHEN t.typlen OPERATOR(pg_catalog.=) (-1)::pg_catalog.int2 THEN 'variable' ELSE t.typlen::pg_catalog.text END,
      ${fn('t.typinput', 'INPUT')}, ${fn('t.typoutput', 'OUTPUT')}, ${fn('t.typreceive', 'RECEIVE')}, ${fn('t.typsend', 'SEND')},
      ${fn('t.typmodin', 'TYPMOD_IN')}, ${fn('t.typmodout', 'TYPMOD_OUT')}, ${fn('t.typanalyze', 'ANALYZE')}, ${fn('t.typsubscript', 'SUBSCRIPT')},
      CASE WHEN t.typbyval THEN 'PASSEDBYVALUE' END,
      'ALIGNMENT = ' || CASE WHEN ${is('t.typalign', 'c')} THEN 'char' WHEN ${is('t.typalign', 's')} THEN 'int2' WHEN ${is('t.typalign', 'i')} THEN 'int4' ELSE 'double' END,
      'STORAGE = ' || CASE WHEN ${is('t.typstorage', 'p')} THEN 'plain' WHEN ${is('t.typstorage', 'e')} THEN 'external' WHEN ${is('t.typstorage', 'x')} THEN 'extended' ELSE 'main' END,
      CASE WHEN NOT ${is('t.typcategory', 'U')} THEN 'CATEGORY = ' || pg_catalog.quote_literal(t.typcategory::pg_catalog.text) END,
      CASE WHEN t.typispreferred THEN 'PREFERRED = true' END,
      CASE WHEN t.typdefault IS NOT NULL THEN 'DEFAULT = ' || pg_catalog.quote_literal(t.typdefault) END,
      CASE WHEN t.typelem OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN 'ELEMENT = ' || pg_catalog.format_type(t.typelem, NULL) END,
      CASE WHEN NOT ${is('t.typdelim', ',')} THEN 'DELIMITER = ' || pg_catalog.quote_literal(t.typdelim::pg_catalog.text) END,
      CASE WHEN t.typcollation OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN 'COLLATABLE = true' END) || ')'`;

/** A UNION ALL branch of the obj CTE. */
export const BASE_TYPE_OBJECTS = `  UNION ALL
  SELECT CASE WHEN t.typisdefined THEN 'base type' ELSE 'shell type' END, ${NAME}, NULL,
    pg_catalog.json_build_array(CASE WHEN t.typisdefined THEN ${DEFINITION} ELSE 'CREATE TYPE ' || ${NAME} END),
    pg_catalog.json_build_array('DROP TYPE ' || ${NAME}),
    ${cls('pg_type')}, t.oid, NULL, NULL
  FROM ${BASE_TYPES}
`;
