// The catalog query's domains as objects defined by SQL (a branch of catalog-objects.ts's obj
// CTE): CREATE DOMAIN with its type, collation, default, NOT NULL and validated CHECKs, then a
// CHECK not validated added after it, as pg_dump writes it (CREATE DOMAIN takes no NOT VALID).
import { cls, notExt, qn } from './catalog-fragments.js';

/** A branch of the obj CTE, after one that ends with UNION ALL; ends with a newline. */
export const DOMAIN_OBJECTS = `  SELECT 'domain', ${qn('ns.nspname', 't.typname')}, NULL,
    (SELECT pg_catalog.json_agg(x.s ORDER BY x.o, x.s) FROM (
       SELECT 0, 'CREATE DOMAIN ' || ${qn('ns.nspname', 't.typname')} || ' AS ' || pg_catalog.format_type(t.typbasetype, t.typtypmod)
      || CASE WHEN t.typcollation <> bt.typcollation THEN ' COLLATE ' || ${qn('cn.nspname', 'co.collname')} ELSE '' END
      || COALESCE(' DEFAULT ' || t.typdefault, '') || CASE WHEN t.typnotnull THEN ' NOT NULL' ELSE '' END
      || COALESCE((SELECT pg_catalog.string_agg(' CONSTRAINT ' || pg_catalog.quote_ident(dc.conname) || ' ' || pg_catalog.pg_get_constraintdef(dc.oid), '' ORDER BY dc.conname)
           FROM pg_catalog.pg_constraint dc WHERE dc.contypid = t.oid AND dc.contype = 'c' AND dc.convalidated), '')
       UNION ALL
       SELECT 1, 'ALTER DOMAIN ' || ${qn('ns.nspname', 't.typname')} || ' ADD CONSTRAINT ' || pg_catalog.quote_ident(dc.conname) || ' ' || pg_catalog.pg_get_constraintdef(dc.oid)
       FROM pg_catalog.pg_constraint dc WHERE dc.contypid = t.oid AND dc.contype = 'c' AND NOT dc.convalidated) AS x(o, s)),
    pg_catalog.json_build_array('DROP DOMAIN ' || ${qn('ns.nspname', 't.typname')}),
    ${cls('pg_type')}, t.oid, NULL, NULL
  FROM pg_catalog.pg_type t JOIN ns ON ns.oid = t.typnamespace JOIN pg_catalog.pg_type bt ON bt.oid = t.typbasetype
  LEFT JOIN pg_catalog.pg_collation co ON co.oid = t.typcollation LEFT JOIN pg_catalog.pg_namespace cn ON cn.oid = co.collnamespace
  WHERE t.typtype = 'd' AND ${notExt('pg_catalog.pg_type', 't.oid')}
`;
