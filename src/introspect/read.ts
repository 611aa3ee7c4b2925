// Reads a cluster's state from the coordinator in one catalog query (two when the citus
// extension is missing: the Citus query fails on the absent pg_dist_* catalogs first).
import { CmError, EXIT, type Problem } from '../errors.js';
import type { Queryable } from '../db/connect.js';
import { loadParser } from '../sql/pg-parse.js';
import { CATALOG_SQL_CITUS, CATALOG_SQL_PLAIN } from './catalog-sql.js';
import { catalogSchema, type CatalogDoc } from './catalog-schema.js';
import { withColumnarOptions } from './columnar-options.js';
import { withWorkerSequences } from './worker-sequences.js';
import { withIdentityLastValues } from './identity-last-values.js';
import { readObjectState } from '../own/object-state.js';
import { catalogToModel } from './to-model.js';
import type { LiveState } from '../model/live-state.js';
import { recordPhase, timed } from '../util/timings.js';

/** Settings the catalog query runs under, each put back in the same round trip. */
export const PINS: readonly (readonly [string, string])[] = [
  // pg_get_viewdef, format_type and the other printers leave a name unqualified when its schema is
  // on the search_path: pinned, "unqualified" always means public, whatever the role's own
  // search_path is (`app, public` would otherwise print app.t as t).
  ['search_path', 'public'],
  // Partition bounds and other constants of time types print in the session's zone and style:
  // pinned, they read the same whoever runs the plan (model/partition-bound.ts).
  ['TimeZone', 'UTC'],
  ['DateStyle', 'ISO, MDY'],
  // The query's cost estimate is far above jit_above_cost on a large schema, and compiling it
  // (optimising and emitting ~20 s of LLVM code at 10,000 tables) costs far more than it saves
  // in a query that runs once: measured by bench/plan-scale.mjs, 24.5 s with JIT, 1.6 s without.
  ['jit', 'off'],
];
const CITUS_PINS: readonly (readonly [string, string])[] = [
  ...PINS,
  // Citus otherwise adds a relation_is_a_known_shard() filter to every scan of pg_class (about
  // 0.25 s per scan at 40,000 relations); the query leaves shards out itself (notAShard).
  ['citus.override_table_visibility', 'off'],
];

/**
 * Runs a catalog query under `pins` and puts the session's settings back, in one round trip:
 * saved into citus_migrate.saved_<n> first, restored after (also when the query fails).
 */
async function pinned(
  db: Queryable,
  catalogSql: string,
  pins: readonly (readonly [string, string])[],
  onSent?: () => void,
): Promise<unknown> {
  const save = pins.map(
    ([name, value], i) =>
      `pg_catalog.set_config('citus_migrate.saved_${i}', COALESCE(pg_catalog.current_setting('${name}', true), '${value}'), false), pg_catalog.set_config('${name}', '${value}', false)`,
  );
  const restore = `SELECT ${pins.map(([name], i) => `pg_catalog.set_config('${name}', pg_catalog.current_setting('citus_migrate.saved_${i}'), false)`).join(', ')}`;
  try {
    const pending = db.query(`SELECT ${save.join(', ')};\n${catalogSql};\n${restore}`);
    onSent?.();
    const results = (await pending) as unknown;
    // Several statements in one simple-protocol query give one result each.
    const catalog = Array.isArray(results) ? results[1] : results;
    return (catalog as { rows: { state?: unknown }[] } | undefined)?.rows[0]?.state;
  } catch (e) {
    await db.query(restore).catch(() => undefined);
    throw e;
  }
}

/** Runs the catalog query and validates its answer; `onSent` is called once the query is on its way. */
export async function readCatalog(
  db: Queryable,
  onSent?: () => void,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  let raw: unknown;
  let roundTrips = 1;
  const querying = performance.now();
  try {
    raw = await pinned(db, CATALOG_SQL_CITUS, CITUS_PINS, onSent);
  } catch (e) {
    const code = (e as { code?: string }).code;
    // 42P01 undefined_table / 42883 undefined_function: no citus extension in this database.
    if (code !== '42P01' && code !== '42883') throw e;
    roundTrips = 2;
    raw = await pinned(db, CATALOG_SQL_PLAIN, PINS);
  }
  recordPhase('catalog query', querying);
  const parsed = timed('validate catalog', () => catalogSchema.safeParse(raw));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new CmError(
      `unexpected answer from the catalog query at ${first?.path.join('.') ?? '?'}: ${first?.message ?? 'invalid'}`,
      'unexpected_catalog',
      EXIT.error,
    );
  }
  const withOptions = await withColumnarOptions(db, parsed.data);
  const withWorkers = await withWorkerSequences(db, withOptions.doc);
  const withLast = await withIdentityLastValues(db, withWorkers.doc);
  return {
    doc: withLast.doc,
    roundTrips: roundTrips + withOptions.roundTrips + withWorkers.roundTrips + withLast.roundTrips,
  };
}

const OBJECT_STATE_DENIED: Problem = {
  severity: 'warning',
  code: 'object_state_unreadable',
  path: 'citus_migrate.object_state',
  message:
    'an apply recorded what PostgreSQL made of the SQL definitions, and this role may not read it: a view or another definition PostgreSQL prints its own way may show as a change (GRANT USAGE ON SCHEMA citus_migrate TO this role; GRANT SELECT ON citus_migrate.object_state TO it)',
};

/** Reads the live state of the cluster as a model; `onSent` as for readCatalog. */
export async function readLiveState(db: Queryable, onSent?: () => void): Promise<LiveState & { roundTrips: number }> {
  await timed('load parser', loadParser);
  const { doc, roundTrips } = await readCatalog(db, onSent);
  const model = timed('model', () => catalogToModel(doc));
  if (doc.objectState === null) return { ...model, roundTrips, warnings: [OBJECT_STATE_DENIED] };
  if (!doc.objectState) return { ...model, roundTrips };
  return { ...model, recorded: await timed('object state', () => readObjectState(db)), roundTrips: roundTrips + 1 };
}
