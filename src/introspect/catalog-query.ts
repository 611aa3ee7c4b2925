// The catalog query itself, sent as soon as a connection is open: this module loads only the SQL
// and the settings it runs under, so the server works on the query while the CLI loads the rest
// (the answer's validation and model in read.ts, the manifest, the planner).
import type { Queryable } from '../db/connect.js';
import { CATALOG_SQL_CITUS, CATALOG_SQL_PLAIN } from './catalog-sql.js';
import { latch } from '../util/latch.js';
import { sessionHasCitus } from '../db/session.js';
import { recordPhase } from '../util/timings.js';

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
  // The other settings that change how a constant prints (a default, a bound): a database's owner
  // may set any of them, and the plan would then see a difference that is not there, or miss one.
  ['IntervalStyle', 'postgres'],
  ['extra_float_digits', '1'],
  ['bytea_output', 'hex'],
  // The query's cost estimate is far above jit_above_cost on a large schema, and compiling it
  // (optimising and emitting ~20 s of LLVM code at 10,000 tables) costs far more than it saves
  // in a query that runs once: measured by bench/plan-scale.mjs, 24.5 s with JIT, 1.6 s without.
  ['jit', 'off'],
  // Its joins planned in the order written: planning the ~190,000-character query took ~46 ms of
  // ~110 on a 60-table schema, 8 ms less so, for the same answer and the same time at 3,000
  // tables (docs/performance.md).
  ['join_collapse_limit', '1'],
  ['from_collapse_limit', '1'],
];
const CITUS_PINS: readonly (readonly [string, string])[] = [
  ...PINS,
  // Citus otherwise adds a relation_is_a_known_shard() filter to every scan of pg_class (about
  // 0.25 s per scan at 40,000 relations); the query leaves shards out itself (notAShard).
  ['citus.override_table_visibility', 'off'],
];

/**
 * Runs a statement (no parameters) under `pins` and puts the session's settings back, in one
 * round trip (so through a transaction pooler too): saved into citus_migrate.saved_<n> first,
 * restored after (when the statement fails, its transaction's end undoes them). Returns the
 * statement's rows.
 */
export async function withPins<R>(
  db: Queryable,
  sql: string,
  pins: readonly (readonly [string, string])[],
  onSent?: () => void,
): Promise<R[]> {
  const save = pins.map(
    ([name, value], i) =>
      `pg_catalog.set_config('citus_migrate.saved_${i}', COALESCE(pg_catalog.current_setting('${name}', true), '${value}'), false), pg_catalog.set_config('${name}', '${value}', false)`,
  );
  const restore = `SELECT ${pins.map(([name], i) => `pg_catalog.set_config('${name}', pg_catalog.current_setting('citus_migrate.saved_${i}'), false)`).join(', ')}`;
  // When a statement fails, nothing is put back by hand: the statements of one simple-protocol
  // query run as one transaction (inside the caller's, if it has one), and its failure undoes
  // every set_config. A restore sent after it read the saved_<n> placeholders the failure had
  // emptied, and set search_path to '' for the rest of the session.
  const pending = db.query(`SELECT ${save.join(', ')};\n${sql};\n${restore}`);
  onSent?.();
  const results = (await pending) as unknown;
  // Several statements in one simple-protocol query give one result each.
  const middle = Array.isArray(results) ? results[1] : results;
  return ((middle as { rows?: R[] } | undefined)?.rows ?? []) as R[];
}

/** The search_path of the tool's own statements alone, pinned for one statement (withPins). */
export const TOOL_PATH_PINS: readonly (readonly [string, string])[] = [['search_path', 'pg_catalog, pg_temp']];

async function pinned(
  db: Queryable,
  catalogSql: string,
  pins: readonly (readonly [string, string])[],
  onSent?: () => void,
): Promise<unknown> {
  return (await withPins<{ state?: unknown }>(db, catalogSql, pins, onSent))[0]?.state;
}

/** The catalog query's raw answer (one JSON document), and the round trips it took. */
export interface CatalogAnswer {
  readonly raw: unknown;
  readonly roundTrips: number;
}

/**
 * How long a caller's `onSent` waits, after the Citus query went out, for that query to fail
 * (on plain PostgreSQL it does at once, its tables unknown: ~3 ms for the server to parse it).
 * The caller starts CPU-heavy work then (the manifest's parsing), which holds the event loop: the
 * failure would be read, and the plain query sent, only after it (150 ms late on a real schema).
 */
export const FALLBACK_GRACE_MS = 15;

/** The grace: FALLBACK_GRACE_MS, or CITUS_MIGRATE_FALLBACK_GRACE_MS (tests, whose order must not depend on the machine's speed). */
export function fallbackGraceMs(env: Readonly<Record<string, string | undefined>>): number {
  const ms = Number(env.CITUS_MIGRATE_FALLBACK_GRACE_MS);
  return Number.isSafeInteger(ms) && ms >= 0 ? ms : FALLBACK_GRACE_MS;
}

/**
 * Runs the catalog query (the plain one when the database has no citus). `onSent` is called
 * once the query that answers is on its way: the plain one when the Citus one failed within
 * FALLBACK_GRACE_MS (or `graceMs`), else the Citus one, that long after it went out. `citus`:
 * the caller knows whether the database has the citus extension (apply's second read), else the
 * session's probe tells (db/session.ts): the query that answers goes out at once. Known or not, a
 * Citus query that fails for want of citus is followed by the plain one.
 */
export async function queryCatalog(
  db: Queryable,
  onSent?: () => void,
  { citus, graceMs = FALLBACK_GRACE_MS }: { citus?: boolean; graceMs?: number } = {},
): Promise<CatalogAnswer> {
  const known = citus ?? sessionHasCitus(db);
  if (known === false) {
    const plain = performance.now();
    const raw = await pinned(db, CATALOG_SQL_PLAIN, PINS, onSent);
    recordPhase('catalog query', plain);
    return { raw, roundTrips: 1 };
  }
  let raw: unknown;
  let roundTrips = 1;
  const querying = performance.now();
  let grace: NodeJS.Timeout | undefined;
  let signalled = false;
  const sent = (): void => {
    clearTimeout(grace);
    if (!signalled) onSent?.();
    signalled = true;
  };
  try {
    // Known to have citus (connectSession's probe): no failure to wait for.
    raw = await pinned(db, CATALOG_SQL_CITUS, CITUS_PINS, () => {
      if (known === true) sent();
      else grace = setTimeout(sent, graceMs);
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    // 42P01 undefined_table / 42883 undefined_function: no citus extension in this database.
    if (code !== '42P01' && code !== '42883') throw e;
    roundTrips = 2;
    const plain = performance.now();
    raw = await pinned(db, CATALOG_SQL_PLAIN, PINS, sent);
    recordPhase('catalog query, plain', plain);
  } finally {
    sent(); // an answer (or an error) within the grace: the caller waits no longer
  }
  recordPhase('catalog query', querying);
  return { raw, roundTrips };
}

/** `onSent` for queryCatalog that also opens `sent` (for liveStateFrom), then calls `then`. */
export function sentSignal(then?: () => void): { sent: Promise<void>; onSent: () => void } {
  const sent = latch();
  return {
    sent: sent.opened,
    onSent: () => {
      sent.open();
      then?.();
    },
  };
}
