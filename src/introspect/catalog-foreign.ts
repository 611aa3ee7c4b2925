// The parts of the catalog query (catalog-more-objects.ts) that read foreign servers (CREATE
// SERVER) and foreign tables of their own (CREATE FOREIGN TABLE; frel in catalog-sql.ts) as
// objects defined by SQL, written as pg_dump writes them: a server with its type, version, wrapper
// and options; a foreign table with its columns (type, options, collation, NOT NULL, DEFAULT or
// GENERATED … STORED), its server and options (its CHECK constraints are objects of their own,
// ALTER TABLE … ADD CONSTRAINT, as a table's are). A user mapping with its options, a secret
// option's value never: a digest of it (objects/user-mapping.ts); one whose options this role
// may not read is named (catalog-not-managed.ts). Citus propagates CREATE SERVER to the workers,
// not CREATE USER MAPPING.
import { cls, notExt, qn } from './catalog-fragments.js';
import { PLAIN_OPTIONS, secretDigestSql } from '../objects/user-mapping.js';

/** `OPTIONS (k 'v', …)` of a text[] of `k=v` options, or ''. */
export const optionsClause = (col: string): string =>
  `COALESCE(' OPTIONS (' || (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(o.option_name) || ' ' || pg_catalog.quote_literal(o.option_value), ', ')
      FROM pg_catalog.pg_options_to_table(${col}) o) || ')', '')`;

/** A user mapping's `OPTIONS (k 'v', …)`, each secret option's value as `'<secret sha256:…>'`, or ''. */
const MAPPING_OPTIONS = `COALESCE(' OPTIONS (' || (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(o.option_name) || ' ' || pg_catalog.quote_literal(
        CASE WHEN o.option_name = ANY (ARRAY[${[...PLAIN_OPTIONS].map((x) => `'${x}'`).join(', ')}]::pg_catalog.text[]) THEN o.option_value
        ELSE '<secret sha256:' || ${secretDigestSql('o.option_value')} || '>' END), ', ')
      FROM pg_catalog.pg_options_to_table(um.umoptions) o) || ')', '')`;

/**
 * Whether this role may read the options of the user mapping `um` (of pg_user_mappings), as that
 * view decides: else they read as NULL, which is not "no options".
 */
export const MAPPING_READABLE = `(COALESCE((SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = CURRENT_USER), false)
    OR (um.umuser = 0::pg_catalog.oid AND pg_catalog.pg_has_role(ums.srvowner, 'USAGE'))
    OR (um.umuser <> 0::pg_catalog.oid AND um.usename = CURRENT_USER
        AND (pg_catalog.pg_has_role(ums.srvowner, 'USAGE') OR pg_catalog.has_server_privilege(ums.oid, 'USAGE'))))`;

/** The name of the user mapping `um`, as the not-managed list and `sql:` files name it. */
export const MAPPING_NAME = `'for '::pg_catalog.text || CASE WHEN um.umuser = 0::pg_catalog.oid THEN 'PUBLIC'::pg_catalog.text ELSE pg_catalog.quote_ident(um.usename) END
         || ' server '::pg_catalog.text || pg_catalog.quote_ident(um.srvname)`;

/** UNION ALL branches of the obj CTE (over its anyrel). */
export const FOREIGN_OBJECTS = `  UNION ALL
  SELECT 'foreign server', pg_catalog.quote_ident(s.srvname), NULL,
    pg_catalog.json_build_array('CREATE SERVER ' || pg_catalog.quote_ident(s.srvname)
      || COALESCE(' TYPE ' || pg_catalog.quote_literal(s.srvtype), '') || COALESCE(' VERSION ' || pg_catalog.quote_literal(s.srvversion), '')
      || ' FOREIGN DATA WRAPPER ' || pg_catalog.quote_ident(w.fdwname) || ${optionsClause('s.srvoptions')}),
    pg_catalog.json_build_array('DROP SERVER ' || pg_catalog.quote_ident(s.srvname)),
    ${cls('pg_foreign_server')}, s.oid, NULL, NULL
  FROM pg_catalog.pg_foreign_server s JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw
  WHERE ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
  UNION ALL
  SELECT 'user mapping', ${MAPPING_NAME}, NULL,
    pg_catalog.json_build_array('CREATE USER MAPPING FOR ' || CASE WHEN um.umuser = 0::pg_catalog.oid THEN 'PUBLIC' ELSE pg_catalog.quote_ident(um.usename) END
      || ' SERVER ' || pg_catalog.quote_ident(um.srvname) || ${MAPPING_OPTIONS}),
    pg_catalog.json_build_array('DROP USER MAPPING FOR ' || CASE WHEN um.umuser = 0::pg_catalog.oid THEN 'PUBLIC' ELSE pg_catalog.quote_ident(um.usename) END
      || ' SERVER ' || pg_catalog.quote_ident(um.srvname)),
    ${cls('pg_user_mapping')}, um.umid, NULL, NULL
  FROM pg_catalog.pg_user_mappings um JOIN pg_catalog.pg_foreign_server ums ON ums.oid = um.srvid
  WHERE ${notExt('pg_catalog.pg_foreign_server', 'ums.oid')} AND ${MAPPING_READABLE}
  UNION ALL
  SELECT 'foreign table', ${qn('r.nspname', 'r.relname')}, NULL,
    pg_catalog.json_build_array('CREATE FOREIGN TABLE ' || ${qn('r.nspname', 'r.relname')} || E' (\\n    '
      || COALESCE((SELECT pg_catalog.string_agg(x.def, E',\\n    ' ORDER BY x.o, x.n) FROM (
           SELECT 0, a.attnum::pg_catalog.int4, pg_catalog.quote_ident(a.attname) || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod)
             || ${optionsClause('a.attfdwoptions')}
             || CASE WHEN a.attcollation <> ty.typcollation AND co.oid IS NOT NULL THEN ' COLLATE ' || ${qn('con.nspname', 'co.collname')} ELSE '' END
             || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
             || CASE WHEN a.attgenerated = 's' THEN ' GENERATED ALWAYS AS (' || pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) || ') STORED'
                  ELSE COALESCE(' DEFAULT ' || pg_catalog.pg_get_expr(ad.adbin, ad.adrelid), '') END
           FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
           LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation LEFT JOIN pg_catalog.pg_namespace con ON con.oid = co.collnamespace
           LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
           WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attislocal) AS x(o, n, def)), '')
      -- The tables it inherits from (INHERITS), in order: their columns are not its own.
      || E'\\n)' || COALESCE(' INHERITS (' || (SELECT pg_catalog.string_agg(${qn('pn.nspname', 'pc.relname')}, ', ' ORDER BY i.inhseqno)
           FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class pc ON pc.oid = i.inhparent
           JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace WHERE i.inhrelid = r.oid) || ')', '')
      || ' SERVER ' || pg_catalog.quote_ident(s.srvname) || ${optionsClause('ft.ftoptions')}),
    pg_catalog.json_build_array('DROP FOREIGN TABLE ' || ${qn('r.nspname', 'r.relname')}),
    ${cls('pg_class')}, r.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_foreign_table ft ON ft.ftrelid = r.oid
  JOIN pg_catalog.pg_foreign_server s ON s.oid = ft.ftserver
  -- (a foreign partition is its table's: catalog-partitions.ts)
  WHERE NOT r.ispart
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const FOREIGN_COMMENTS = `    UNION ALL
    SELECT 'SERVER', pg_catalog.quote_ident(s.srvname), 'server ' || pg_catalog.quote_ident(s.srvname), d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_foreign_server s ON s.oid = d.objoid AND d.classoid = ${cls('pg_foreign_server')}
    WHERE ${notExt('pg_catalog.pg_foreign_server', 's.oid')}
`;
