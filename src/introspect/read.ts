// Reads a cluster's state from the coordinator in one catalog query (two when the citus
// extension is missing: the Citus query fails on the absent pg_dist_* catalogs first).
import { CmError, EXIT, type Problem } from '../errors.js';
import type { Queryable } from '../db/connect.js';
import { loadParser } from '../sql/pg-parse.js';
import { queryCatalog, sentSignal, type CatalogAnswer } from './catalog-query.js';
import { catalogDoc, catalogShapeProblem, type CatalogAnswerDoc, type CatalogDoc } from '../model/catalog-doc.js';
import { withColumnarOptions } from './columnar-options.js';
import { withWorkerSequences } from './worker-sequences.js';
import { withWorkerCasts } from './worker-casts.js';
import { withWorkerAcls } from './worker-acls.js';
import { withIdentityLastValues } from './identity-last-values.js';
import { withSubscriptionSecrets } from './subscription-secrets.js';
import type { RecordedObject } from '../model/live-state.js';
import { catalogToModel } from './to-model.js';
import type { LiveState } from '../model/live-state.js';
import { recordPhase, timed } from '../util/timings.js';

/** Runs the catalog query and validates its answer; `onSent` is called once the query is on its way. */
export async function readCatalog(
  db: Queryable,
  onSent?: () => void,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  return validateCatalog(db, await queryCatalog(db, onSent));
}

/** Validates the catalog query's answer (queryCatalog's) and reads what it leaves to other queries. */
export async function validateCatalog(
  db: Queryable,
  answer: CatalogAnswer,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  const { raw, roundTrips } = answer;
  // The answer is the tool's own query's: its shape is checked, its rows are read as typed
  // (model/catalog-doc.ts; the tests hold every answer to the zod schema).
  const wrong = catalogShapeProblem(raw);
  if (wrong !== undefined)
    throw new CmError(`unexpected answer from the catalog query at ${wrong}`, 'unexpected_catalog', EXIT.error);
  const doc = timed('read catalog', () => catalogDoc(raw as CatalogAnswerDoc));
  const withOptions = await withColumnarOptions(db, doc);
  const withWorkers = await withWorkerSequences(db, withOptions.doc);
  const withCasts = await withWorkerCasts(db, withWorkers.doc);
  const aclsStart = performance.now();
  const withAcls = await withWorkerAcls(db, withCasts.doc);
  recordPhase("workers' ACLs", aclsStart);
  const withLast = await withIdentityLastValues(db, withAcls.doc);
  const withSubs = await withSubscriptionSecrets(db, withLast.doc);
  return {
    doc: withSubs.doc,
    roundTrips:
      roundTrips +
      withOptions.roundTrips +
      withWorkers.roundTrips +
      withCasts.roundTrips +
      withAcls.roundTrips +
      withLast.roundTrips +
      withSubs.roundTrips,
  };
}

const OBJECT_STATE_DENIED: Problem = {
  severity: 'warning',
  code: 'object_state_unreadable',
  path: 'citus_migrate.object_state',
  message:
    'an apply recorded what PostgreSQL made of the SQL definitions, and this role may not read it: a view or another definition PostgreSQL prints its own way may show as a change (GRANT USAGE ON SCHEMA citus_migrate TO this role; GRANT SELECT ON citus_migrate.object_state TO it)',
};

/** object_state is there, but another role may write it (or owns it): the plan does not trust it. */
function objectStateUntrusted(untrusted: { reasons: string[]; revoke: string[] }): Problem {
  return {
    severity: 'warning',
    code: 'object_state_untrusted',
    path: 'citus_migrate.object_state',
    message: `what earlier applies recorded of the SQL definitions is not trusted, so this plan ignores it: ${untrusted.reasons.join('; ')}. A row another role wrote could make a changed view or other definition look unchanged; definitions PostgreSQL prints its own way are planned again until an apply records them anew, with only the owner and superusers able to write the table${untrusted.revoke.length > 0 ? ` (${untrusted.revoke.join(' ')})` : ''}`,
  };
}

/**
 * Reads the live state of the cluster as a model; `onSent` as for readCatalog; `citus: false`
 * when the caller knows the database has no citus extension (queryCatalog).
 */
export function readLiveState(
  db: Queryable,
  readRecorded: RecordedReader,
  onSent?: () => void,
  known: { citus?: boolean } = {},
): Promise<LiveState & { roundTrips: number }> {
  const signal = sentSignal(onSent);
  return liveStateFrom(db, queryCatalog(db, signal.onSent, known), readRecorded, signal.sent);
}

/**
 * Reads what earlier applies recorded of the SQL definitions (the tool's own schema's: given by
 * own/, which sits above this reader), or why it is not trusted.
 */
export type RecordedReader = (
  db: Queryable,
) => Promise<{ recorded: Record<string, RecordedObject> } | { untrusted: { reasons: string[]; revoke: string[] } }>;

/**
 * The live state as a model, from the catalog query's answer once it comes (queryCatalog's,
 * already sent). The SQL parser loads (~25 ms holding the event loop) once `querySent` settles:
 * the query that answers is on its way (see queryCatalog's onSent).
 */
export async function liveStateFrom(
  db: Queryable,
  answer: Promise<CatalogAnswer>,
  readRecorded: RecordedReader,
  querySent?: Promise<void>,
): Promise<LiveState & { roundTrips: number }> {
  const ready = querySent ? Promise.race([querySent, answer.then(() => undefined)]) : Promise.resolve();
  const [, sent] = await Promise.all([ready.then(() => timed('load parser', loadParser)), answer]);
  const { doc, roundTrips } = await validateCatalog(db, sent);
  const model = timed('model', () => catalogToModel(doc));
  if (doc.objectState === null) return { ...model, roundTrips, warnings: [OBJECT_STATE_DENIED] };
  // No table: nothing was recorded (and nothing needs replacing).
  if (!doc.objectState) return { ...model, recorded: {}, roundTrips };
  const state = await timed('object state', () => readRecorded(db));
  if ('untrusted' in state)
    return { ...model, roundTrips: roundTrips + 1, warnings: [objectStateUntrusted(state.untrusted)] };
  return { ...model, recorded: state.recorded, roundTrips: roundTrips + 1 };
}
