// The part of the catalog query (catalog-objects.ts's obj rows) that reads operators as objects
// defined by SQL, rebuilt from pg_operator as pg_dump writes them (PostgreSQL has no
// pg_get_operatordef). An operator is named by its schema, symbol and argument types, as DROP
// OPERATOR names it: `public.~~(anynonarray, text)`, NONE for a prefix operator's left side.
import { cls, notExt, qn } from './catalog-fragments.js';

/** The object name of operator `o` (in schema `ns`). */
export const OPERATOR_NAME = `pg_catalog.quote_ident(ns.nspname) || '.' || o.oprname::pg_catalog.text || '('
  || COALESCE(pg_catalog.format_type(NULLIF(o.oprleft, 0::pg_catalog.oid), NULL), 'NONE') || ', ' || pg_catalog.format_type(o.oprright, NULL) || ')'`;

/** OPERATOR(schema.symbol) of the operator whose oid is `oid`. */
const operatorRef = (oid: string): string =>
  `(SELECT 'OPERATOR(' || pg_catalog.quote_ident(xn.nspname) || '.' || x.oprname::pg_catalog.text || ')' FROM pg_catalog.pg_operator x
     JOIN pg_catalog.pg_namespace xn ON xn.oid = x.oprnamespace WHERE x.oid = ${oid})`;

/** A UNION ALL branch of the obj CTE. */
export const OPERATOR_OBJECTS = `
  UNION ALL
  SELECT 'operator', ${OPERATOR_NAME}, NULL,
    pg_catalog.json_build_array('CREATE OPERATOR ' || pg_catalog.quote_ident(ns.nspname) || '.' || o.oprname::pg_catalog.text || ' ('
      || pg_catalog.concat_ws(', ', 'FUNCTION = ' || ${qn('pn.nspname', 'p.proname')},
           'LEFTARG = ' || pg_catalog.format_type(NULLIF(o.oprleft, 0::pg_catalog.oid), NULL), 'RIGHTARG = ' || pg_catalog.format_type(o.oprright, NULL),
           'COMMUTATOR = ' || ${operatorRef('NULLIF(o.oprcom, 0::pg_catalog.oid)')}, 'NEGATOR = ' || ${operatorRef('NULLIF(o.oprnegate, 0::pg_catalog.oid)')},
           'RESTRICT = ' || NULLIF(o.oprrest::pg_catalog.oid, 0::pg_catalog.oid)::pg_catalog.regproc::pg_catalog.text, 'JOIN = ' || NULLIF(o.oprjoin::pg_catalog.oid, 0::pg_catalog.oid)::pg_catalog.regproc::pg_catalog.text,
           CASE WHEN o.oprcanhash THEN 'HASHES' END, CASE WHEN o.oprcanmerge THEN 'MERGES' END) || ')'),
    pg_catalog.json_build_array('DROP OPERATOR ' || ${OPERATOR_NAME}),
    ${cls('pg_operator')}, o.oid, NULL, NULL
  FROM pg_catalog.pg_operator o JOIN ns ON ns.oid = o.oprnamespace
  JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode::pg_catalog.oid JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
  WHERE ${notExt('pg_catalog.pg_operator', 'o.oid')}
`;

/** UNION ALL branches of the comments (keyword, target, parent, description). */
export const OPERATOR_COMMENTS = `    UNION ALL
    SELECT 'OPERATOR', ${OPERATOR_NAME}, 'operator ' || ${OPERATOR_NAME}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_operator o ON o.oid = d.objoid AND d.classoid = ${cls('pg_operator')}
    JOIN ns ON ns.oid = o.oprnamespace WHERE ${notExt('pg_catalog.pg_operator', 'o.oid')}
`;
