// Whether the catalog changed at all between two moments, for much less than reading it again
// (read-guard.ts reads it again only then). Taken before the plan's catalog read and again in the
// transaction: for each catalog table of the database (pg_catalog's, Citus's pg_dist_* among them),
// its number of rows and a hash of the (ctid, xmin) of the rows written by a transaction that may
// not have been visible to the first mark's snapshot (xmin at or after that snapshot's xmin: any
// insert, update or delete since, even by a subtransaction, writes such a row or changes the
// count). Equal marks mean no committed change in between: the read made between them is the
// catalog as it still is. (A row written in place keeps its ctid and xmin: PostgreSQL does that
// only for planner statistics and frozen ids, which no plan depends on.)
//
// Left out, so that they do not make every mark differ: planner statistics (pg_statistic*), large
// objects, shared catalogs (other databases and roles write them), and Citus's bookkeeping of
// transactions, cleanups and background jobs.
import type { Queryable } from '../db/connect.js';
import { quoteIdent, quoteLiteral } from '../sql/quote.js';

const LEFT_OUT = [
  'pg_statistic',
  'pg_statistic_ext_data',
  'pg_largeobject',
  'pg_largeobject_metadata',
  'pg_dist_transaction',
  'pg_dist_cleanup',
  'pg_dist_background_job',
  'pg_dist_background_task',
  'pg_dist_background_task_depend',
];

const CATALOGS_SQL = `SELECT c.relname FROM pg_catalog.pg_class c
  WHERE c.relnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
    AND c.relkind OPERATOR(pg_catalog.=) 'r' AND NOT c.relisshared
    AND c.relname OPERATOR(pg_catalog.<>) ALL (ARRAY[${LEFT_OUT.map(quoteLiteral).join(', ')}]::pg_catalog.name[])
  ORDER BY c.relname`;

/** A mark of the catalog: see the file comment. */
export interface CatalogMark {
  /** The catalog tables it covers. */
  readonly catalogs: readonly string[];
  /** Its snapshot's xmin, as an xid (its low 32 bits). */
  readonly since: string;
  /** Per catalog, `count:hash`. */
  readonly state: readonly string[];
}

/** One value per catalog: its rows and the hash of its rows written at or after `since` (an xid expression). */
const stateSql = (catalogs: readonly string[], since: string): string =>
  `ARRAY[${catalogs
    .map(
      (name) =>
        `(SELECT pg_catalog.count(*)::pg_catalog.text OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) COALESCE(pg_catalog.md5(pg_catalog.string_agg(t.ctid::pg_catalog.text OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) t.xmin::pg_catalog.text, ',' ORDER BY t.ctid) FILTER (WHERE pg_catalog.age(t.xmin) OPERATOR(pg_catalog.<=) pg_catalog.age(${since}))), '') FROM pg_catalog.${quoteIdent(name)} t)`,
    )
    .join(', ')}]::pg_catalog.text[]`;

/** The xmin of the statement's snapshot as an xid (an xid8's low 32 bits, as xmin columns hold it). */
const SNAPSHOT_XMIN =
  '((pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot())::pg_catalog.text::pg_catalog.int8 OPERATOR(pg_catalog.%) 4294967296)::pg_catalog.text::pg_catalog.xid)';

/** Marks the catalog as it is now (two round trips). */
export async function markCatalog(db: Queryable): Promise<CatalogMark> {
  const catalogs = (await db.query<{ relname: string }>(CATALOGS_SQL)).rows.map((r) => r.relname);
  // The snapshot's xmin computed once (inlined, pg_current_snapshot() would be built again for every row).
  const r = await db.query<{ since: string; state: string[] }>(
    `WITH s AS MATERIALIZED (SELECT ${SNAPSHOT_XMIN} AS since) SELECT s.since::pg_catalog.text AS since, ${stateSql(catalogs, 's.since')} AS state FROM s`,
  );
  return { catalogs, since: r.rows[0]!.since, state: r.rows[0]!.state };
}

/** Whether the catalog changed since `mark` was taken (one round trip). */
export async function changedSince(db: Queryable, mark: CatalogMark): Promise<boolean> {
  const r = await db.query<{ state: string[] }>(`SELECT ${stateSql(mark.catalogs, '$1::pg_catalog.xid')} AS state`, [
    mark.since,
  ]);
  const now = r.rows[0]!.state;
  return now.length !== mark.state.length || now.some((s, i) => s !== mark.state[i]);
}
