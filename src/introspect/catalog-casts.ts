// The parts of the catalog query (catalog-more-objects.ts) that read the user's casts (CREATE
// CAST) as objects defined by SQL, written as pg_dump writes them: WITH FUNCTION f(args), WITH
// INOUT or WITHOUT FUNCTION, and AS ASSIGNMENT or AS IMPLICIT. A cast is named by its two types
// as format_type prints them (objects/cast.ts). Only the coordinator's are read: Citus does not
// propagate casts, and the plan makes each on the workers too.
import { cls, notExt } from './catalog-fragments.js';

const NAME = `'(' || pg_catalog.format_type(ca.castsource, NULL) || ' AS ' || pg_catalog.format_type(ca.casttarget, NULL) || ')'`;
// The user's: made after initdb (PostgreSQL's own have oids below 16384), not by an extension, nor
// by CREATE TYPE … AS RANGE (its range-to-multirange cast, as pg_dump leaves it out too).
export const USER_CASTS = `ca.oid OPERATOR(pg_catalog.>=) 16384::pg_catalog.oid
    AND NOT EXISTS (SELECT FROM pg_catalog.pg_range rg WHERE rg.rngtypid OPERATOR(pg_catalog.=) ca.castsource AND rg.rngmultitypid OPERATOR(pg_catalog.=) ca.casttarget)`;
const USERS = `${USER_CASTS} AND ${notExt('pg_catalog.pg_cast', 'ca.oid')}`;

/** A UNION ALL branch of the obj CTE. */
export const CAST_OBJECTS = `  UNION ALL
  SELECT 'cast', ${NAME}, NULL,
    pg_catalog.json_build_array('CREATE CAST ' || ${NAME}
      || CASE ca.castmethod WHEN 'f' THEN ' WITH FUNCTION ' || ca.castfunc::pg_catalog.regprocedure::pg_catalog.text
           WHEN 'i' THEN ' WITH INOUT' ELSE ' WITHOUT FUNCTION' END
      || CASE ca.castcontext WHEN 'a' THEN ' AS ASSIGNMENT' WHEN 'i' THEN ' AS IMPLICIT' ELSE '' END),
    pg_catalog.json_build_array('DROP CAST ' || ${NAME}),
    ${cls('pg_cast')}, ca.oid, NULL, NULL
  FROM pg_catalog.pg_cast ca
  WHERE ${USERS}
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const CAST_COMMENTS = `    UNION ALL
    SELECT 'CAST', ${NAME}, 'cast ' || ${NAME}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_cast ca ON ca.oid = d.objoid AND d.classoid = ${cls('pg_cast')}
    WHERE ${USERS}
`;
