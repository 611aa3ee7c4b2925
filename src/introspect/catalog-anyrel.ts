// The catalog query's anyrel CTE: every relation objects defined by SQL may be on or be (the
// model's tables, views and materialized views, the managed partitions, foreign tables), as
// catalog-objects.ts, catalog-privileges.ts and the other parts read them.
import { notExt } from './catalog-fragments.js';

/** CTE `anyrel(oid, nspname, relname, relkind, ispart)` (after `ns`, `rel`, `prt` and `frel`). */
export const ANYREL_CTE = `anyrel AS (
  SELECT rel.oid, rel.nspname, rel.relname, rel.relkind, false AS ispart FROM rel
  UNION ALL
  SELECT c.oid, ns.nspname, c.relname, c.relkind, false FROM pg_catalog.pg_class c JOIN ns ON ns.oid = c.relnamespace
  WHERE c.relkind IN ('v', 'm') AND ${notExt('pg_catalog.pg_class', 'c.oid')}
  UNION ALL
  -- The managed partitions at every level (catalog-sql.ts's prt): what is their own (an index,
  -- CHECK or trigger made on the partition, not cloned from the parent's) is an object of its own.
  SELECT c.oid, cn.nspname, c.relname, c.relkind, true FROM prt
  JOIN pg_catalog.pg_class c ON c.oid = prt.oid
  JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace
  UNION ALL
  -- Foreign tables (catalog-sql.ts's frel): objects of their own (catalog-foreign.ts).
  SELECT f.oid, f.nspname, f.relname, 'f', false FROM frel f
)`;
