// The parts of the catalog query (catalog-objects.ts's obj rows and comments) that read the user's
// collations (CREATE COLLATION) as objects defined by SQL, written as pg_dump writes them:
// the provider, the locale (or LC_COLLATE and LC_CTYPE apart) and whether it is deterministic.
// Citus propagates CREATE COLLATION to the workers.
import { cls, notExt, qn } from './catalog-fragments.js';

const NAME = qn('ns.nspname', 'co.collname');

/** A UNION ALL branch of the obj CTE. */
export const COLLATION_OBJECTS = `  UNION ALL
  SELECT 'collation', ${NAME}, NULL,
    pg_catalog.json_build_array('CREATE COLLATION ' || ${NAME} || ' (provider = '
      || CASE co.collprovider WHEN 'i' THEN 'icu' ELSE 'libc' END
      || CASE WHEN NOT co.collisdeterministic THEN ', deterministic = false' ELSE '' END
      || CASE WHEN co.collprovider = 'i' THEN ', locale = ' || pg_catalog.quote_literal(co.colliculocale)
           WHEN co.collcollate = co.collctype THEN ', locale = ' || pg_catalog.quote_literal(co.collcollate)
           ELSE ', lc_collate = ' || pg_catalog.quote_literal(co.collcollate) || ', lc_ctype = ' || pg_catalog.quote_literal(co.collctype) END
      || ')'),
    pg_catalog.json_build_array('DROP COLLATION ' || ${NAME}),
    ${cls('pg_collation')}, co.oid, NULL, NULL
  FROM pg_catalog.pg_collation co JOIN ns ON ns.oid = co.collnamespace
  WHERE ${notExt('pg_catalog.pg_collation', 'co.oid')}
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const COLLATION_COMMENTS = `    UNION ALL
    SELECT 'COLLATION', ${NAME}, 'collation ' || ${NAME}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_collation co ON co.oid = d.objoid AND d.classoid = ${cls('pg_collation')}
    JOIN ns ON ns.oid = co.collnamespace WHERE ${notExt('pg_catalog.pg_collation', 'co.oid')}
`;
