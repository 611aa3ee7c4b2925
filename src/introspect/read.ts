// Reads a cluster's state from the coordinator in one catalog query (two when the citus
// extension is missing: the Citus query fails on the absent pg_dist_* catalogs first).
import { CmError, EXIT } from '../errors.js';
import type { Queryable } from '../db/connect.js';
import { loadParser } from '../sql/pg-parse.js';
import { CATALOG_SQL_CITUS, CATALOG_SQL_PLAIN } from './catalog-sql.js';
import { catalogSchema, type CatalogDoc } from './catalog-schema.js';
import { readObjectState } from '../apply/object-state.js';
import { catalogToModel, type LiveState } from './to-model.js';

/**
 * Runs a catalog query with search_path set to public alone, then puts the session's back, in
 * one round trip. pg_get_viewdef, format_type and the other printers leave a name unqualified when
 * its schema is on the search_path: pinned, "unqualified" always means public, whatever the
 * role's own search_path is (`app, public` would otherwise print app.t as t).
 */
async function pinnedSearchPath(db: Queryable, catalogSql: string): Promise<unknown> {
  const saved = `SELECT pg_catalog.set_config('citus_migrate.saved_search_path', pg_catalog.current_setting('search_path'), false), pg_catalog.set_config('search_path', 'public', false)`;
  const restore = `SELECT pg_catalog.set_config('search_path', pg_catalog.current_setting('citus_migrate.saved_search_path'), false)`;
  try {
    const results = (await db.query(`${saved};\n${catalogSql};\n${restore}`)) as unknown;
    // Several statements in one simple-protocol query give one result each.
    const catalog = Array.isArray(results) ? results[1] : results;
    return (catalog as { rows: { state?: unknown }[] } | undefined)?.rows[0]?.state;
  } catch (e) {
    await db.query(restore).catch(() => undefined);
    throw e;
  }
}

/** Runs the catalog query and validates its answer. */
export async function readCatalog(db: Queryable): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  let raw: unknown;
  let roundTrips = 1;
  try {
    raw = await pinnedSearchPath(db, CATALOG_SQL_CITUS);
  } catch (e) {
    const code = (e as { code?: string }).code;
    // 42P01 undefined_table / 42883 undefined_function: no citus extension in this database.
    if (code !== '42P01' && code !== '42883') throw e;
    roundTrips = 2;
    raw = await pinnedSearchPath(db, CATALOG_SQL_PLAIN);
  }
  const parsed = catalogSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new CmError(`unexpected answer from the catalog query at ${first?.path.join('.') ?? '?'}: ${first?.message ?? 'invalid'}`, 'unexpected_catalog', EXIT.error);
  }
  return { doc: parsed.data, roundTrips };
}

/** Reads the live state of the cluster as a model. */
export async function readLiveState(db: Queryable): Promise<LiveState & { roundTrips: number }> {
  await loadParser();
  const { doc, roundTrips } = await readCatalog(db);
  if (!doc.objectState) return { ...catalogToModel(doc), roundTrips };
  return { ...catalogToModel(doc), recorded: await readObjectState(db), roundTrips: roundTrips + 1 };
}
