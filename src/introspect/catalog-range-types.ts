// The part of the catalog query (catalog-more-objects.ts) that reads the user's range types
// (CREATE TYPE … AS RANGE) as objects defined by SQL: the subtype, and each other option only
// where it is not PostgreSQL's default (a file may leave them out): the subtype's operator class,
// its collation, CANONICAL, SUBTYPE_DIFF, and the multirange type's name (by default the range's
// with "range" made "multirange", or "_multirange" added, in its schema). Citus neither
// propagates them nor distributes a table that uses one (plan/checks/range-type-problems.ts).
import { cls, notExt, qn } from './catalog-fragments.js';

const NAME = qn('ns.nspname', 't.typname');
const DEFAULT_MULTIRANGE = `CASE WHEN pg_catalog.strpos(t.typname, 'range') > 0
  THEN pg_catalog.overlay(t.typname::pg_catalog.text, 'multirange', pg_catalog.strpos(t.typname, 'range'), 5)
  ELSE t.typname::pg_catalog.text || '_multirange' END`;

/** A UNION ALL branch of the obj CTE. */
export const RANGE_TYPE_OBJECTS = `  UNION ALL
  SELECT 'range type', ${NAME}, NULL,
    pg_catalog.json_build_array('CREATE TYPE ' || ${NAME} || ' AS RANGE (subtype = ' || pg_catalog.format_type(r.rngsubtype, NULL)
      || CASE WHEN NOT oc.opcdefault THEN ', subtype_opclass = ' || ${qn('ocn.nspname', 'oc.opcname')} ELSE '' END
      || CASE WHEN r.rngcollation <> 0::pg_catalog.oid AND r.rngcollation <> st.typcollation THEN ', collation = ' || ${qn('con.nspname', 'co.collname')} ELSE '' END
      || CASE WHEN r.rngcanonical::pg_catalog.oid OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN ', canonical = ' || r.rngcanonical::pg_catalog.text ELSE '' END
      || CASE WHEN r.rngsubdiff::pg_catalog.oid OPERATOR(pg_catalog.<>) 0::pg_catalog.oid THEN ', subtype_diff = ' || r.rngsubdiff::pg_catalog.text ELSE '' END
      || CASE WHEN mt.typname::pg_catalog.text <> ${DEFAULT_MULTIRANGE} OR mt.typnamespace <> t.typnamespace
           THEN ', multirange_type_name = ' || ${qn('mn.nspname', 'mt.typname')} ELSE '' END
      || ')'),
    pg_catalog.json_build_array('DROP TYPE ' || ${NAME}),
    ${cls('pg_type')}, t.oid, NULL, NULL
  FROM pg_catalog.pg_range r JOIN pg_catalog.pg_type t ON t.oid = r.rngtypid JOIN ns ON ns.oid = t.typnamespace
  JOIN pg_catalog.pg_type st ON st.oid = r.rngsubtype
  JOIN pg_catalog.pg_opclass oc ON oc.oid = r.rngsubopc JOIN pg_catalog.pg_namespace ocn ON ocn.oid = oc.opcnamespace
  LEFT JOIN pg_catalog.pg_collation co ON co.oid = r.rngcollation LEFT JOIN pg_catalog.pg_namespace con ON con.oid = co.collnamespace
  JOIN pg_catalog.pg_type mt ON mt.oid = r.rngmultitypid JOIN pg_catalog.pg_namespace mn ON mn.oid = mt.typnamespace
  WHERE ${notExt('pg_catalog.pg_type', 't.oid')}
`;
