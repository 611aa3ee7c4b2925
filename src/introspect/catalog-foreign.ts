// The parts of the catalog query (catalog-more-objects.ts) that read foreign servers (CREATE
// SERVER) and foreign tables of their own (CREATE FOREIGN TABLE; frel in catalog-sql.ts) as
// objects defined by SQL, written as pg_dump writes them: a server with its type, version, wrapper
// and options; a foreign table with its columns (type, options, collation, NOT NULL, DEFAULT or
// GENERATED … STORED), its server and options (its CHECK constraints are objects of their own,
// ALTER TABLE … ADD CONSTRAINT, as a table's are). User mappings (their
// options hold passwords) are named, not read. Citus propagates CREATE SERVER to the workers.
import { cls, notExt, qn } from './catalog-fragments.js';

/** `OPTIONS (k 'v', …)` of a text[] of `k=v` options, or ''. */
const options = (col: string): string =>
  `COALESCE(' OPTIONS (' || (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(o.option_name) || ' ' || pg_catalog.quote_literal(o.option_value), ', ')
      FROM pg_catalog.pg_options_to_table(${col}) o) || ')', '')`;

/** UNION ALL branches of the obj CTE (over its anyrel). */
export const FOREIGN_OBJECTS = `  UNION ALL
  SELECT 'foreign server', pg_catalog.quote_ident(s.srvname), NULL,
    pg_catalog.json_build_array('CREATE SERVER ' || pg_catalog.quote_ident(s.srvname)
      || COALESCE(' TYPE ' || pg_catalog.quote_literal(s.srvtype), '') || COALESCE(' VERSION ' || pg_catalog.quote_literal(s.srvversion), '')
      || ' FOREIGN DATA WRAPPER ' || pg_catalog.quote_ident(w.fdwname) || ${options('s.srvoptions')}),
    pg_catalog.json_build_array('DROP SERVER ' || pg_catalog.quote_ident(s.srvname)),
    ${cls('pg_foreign_server')}, s.oid, NULL, NULL
  FROM pg_catalog.pg_foreign_server s JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw
  WHERE ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
  UNION ALL
  SELECT 'foreign table', ${qn('r.nspname', 'r.relname')}, NULL,
    pg_catalog.json_build_array('CREATE FOREIGN TABLE ' || ${qn('r.nspname', 'r.relname')} || E' (\\n    '
      || COALESCE((SELECT pg_catalog.string_agg(x.def, E',\\n    ' ORDER BY x.o, x.n) FROM (
           SELECT 0, a.attnum::pg_catalog.int4, pg_catalog.quote_ident(a.attname) || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod)
             || ${options('a.attfdwoptions')}
             || CASE WHEN a.attcollation <> ty.typcollation AND co.oid IS NOT NULL THEN ' COLLATE ' || ${qn('con.nspname', 'co.collname')} ELSE '' END
             || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
             || CASE WHEN a.attgenerated = 's' THEN ' GENERATED ALWAYS AS (' || pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) || ') STORED'
                  ELSE COALESCE(' DEFAULT ' || pg_catalog.pg_get_expr(ad.adbin, ad.adrelid), '') END
           FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
           LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation LEFT JOIN pg_catalog.pg_namespace con ON con.oid = co.collnamespace
           LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
           WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped) AS x(o, n, def)), '')
      || E'\\n) SERVER ' || pg_catalog.quote_ident(s.srvname) || ${options('ft.ftoptions')}),
    pg_catalog.json_build_array('DROP FOREIGN TABLE ' || ${qn('r.nspname', 'r.relname')}),
    ${cls('pg_class')}, r.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_foreign_table ft ON ft.ftrelid = r.oid
  JOIN pg_catalog.pg_foreign_server s ON s.oid = ft.ftserver
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const FOREIGN_COMMENTS = `    UNION ALL
    SELECT 'SERVER', pg_catalog.quote_ident(s.srvname), 'server ' || pg_catalog.quote_ident(s.srvname), d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_foreign_server s ON s.oid = d.objoid AND d.classoid = ${cls('pg_foreign_server')}
    WHERE ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
`;
