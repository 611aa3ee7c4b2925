// After COMMIT: read the cluster again, record what PostgreSQL printed of SQL objects, require
// an empty plan, and record in the history what happened: success, or committed but not
// converged (the transaction's changes stay; the apply exits 1).
import type pg from 'pg';
import { CmError, EXIT } from '../errors.js';
import { readLiveState } from '../introspect/read.js';
import { readShardState } from '../introspect/read-shards.js';
import { tableKey } from '../model/shard-keys.js';
import type { QualifiedName } from '../sql/quote.js';
import type { LoadedManifest } from '../manifest/load.js';
import { planLive } from '../plan/from-manifest.js';
import type { PlanDocument } from '../plan/plan.js';
import { plural } from '../util/plural.js';
import { withCitus } from './batches.js';
import { withLockTimeout } from './execute.js';
import { finishHistory } from '../own/history.js';
import { recordObjectState } from '../own/object-state.js';

/** Reads the cluster again after COMMIT, records what PostgreSQL printed of SQL objects, and requires an empty plan. */
/** The tables a plan's steps change, keyed as the shard check keys them. */
function touchedTables(plan: PlanDocument): Set<string> {
  const out = new Set<string>();
  for (const s of [...plan.transaction.steps, ...plan.afterCommit]) {
    const t = (s.step as { table?: unknown }).table;
    if (t && typeof t === 'object' && 'schema' in t && 'name' in t)
      out.add(tableKey([(t as QualifiedName).schema, (t as QualifiedName).name]));
  }
  return out;
}

export async function verifyConverged(
  client: pg.Client,
  m: LoadedManifest,
  plan: PlanDocument,
  file: string,
  timeouts: Parameters<typeof withLockTimeout>[1],
  shards = false,
): Promise<void> {
  // What the plan's objects were declared as is worked out while the server reads the catalog.
  const declared = (): void => void plan.recordObjects;
  const afterLive = await withLockTimeout(client, timeouts, 'reading the catalog to verify', () =>
    readLiveState(client, declared, { citus: withCitus(plan) ? undefined : false }),
  );
  const recorded = await recordObjectState(client, plan, afterLive);
  // With --shards the shards are read again too: what apply verifies is what `plan --shards` sees.
  // On Citus the shards of every table the plan changed are read in any case: a change that did not
  // reach the workers (Citus's DDL propagation turned off by a setting, a node that missed it) is
  // not "verified".
  const touched = shards || !afterLive.citus ? undefined : touchedTables(plan);
  const shardState = shards
    ? await readShardState(client)
    : touched && touched.size > 0
      ? await readShardState(client, touched)
      : undefined;
  const after = planLive(m, { ...afterLive, recorded }, file, shardState ? { shards: shardState } : {});
  const left = [...after.transaction.steps, ...after.afterCommit];
  // A problem the next plan would refuse is not convergence either: what is verified here is what the next plan sees.
  if (left.length > 0 || after.problems.length > 0) {
    throw new CmError(
      `applied, but the cluster did not converge: planning again ${[
        ...(left.length > 0 ? [`still finds ${plural(left.length, 'step')}`] : []),
        ...(after.problems.length > 0 ? [`reports ${plural(after.problems.length, 'problem')}`] : []),
      ].join(' and ')}\n${[
        ...left.map((s) => `  ${s.index}. ${s.summary}`),
        ...after.problems.map((p) => `  ${p.object}: ${p.message}`),
      ].join('\n')}`,
      'not_converged',
      EXIT.error,
      { remaining: left.map((s) => s.summary), problems: after.problems.map((p) => `${p.object}: ${p.message}`) },
    );
  }
}

/** Runs verify after COMMIT; records 'success', or 'committed_not_converged' with the reason (and rethrows it). */
export async function verifyAndRecord(db: pg.Client, historyId: number, verify: () => Promise<void>): Promise<void> {
  try {
    await verify();
  } catch (e) {
    const err =
      e instanceof CmError ? { code: e.code, message: e.message, ...e.meta } : { message: (e as Error).message };
    await finishHistory(db, historyId, 'committed_not_converged', err).catch(() => undefined);
    throw e;
  }
  await finishHistory(db, historyId, 'success');
}
