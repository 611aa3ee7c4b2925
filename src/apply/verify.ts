// After COMMIT: read the cluster again, record what PostgreSQL printed of SQL objects, require
// an empty plan, and record in the history what happened: applied, or committed but not
// converged (the transaction's changes stay; the apply exits 1). When the verification itself
// cannot be made (its catalog read or a write to citus_migrate waits longer than --lock-timeout,
// the connection drops), the apply says that the transaction COMMITTED and only verifying it
// failed, records that, and exits 8 (CommittedUnverified).
import type pg from 'pg';
import { CmError, EXIT } from '../errors.js';
import { readLiveState } from '../own/live-state.js';
import { readShardState } from '../introspect/read-shards.js';
import { tablesOf } from './blockers.js';
import type { LoadedManifest } from '../manifest/load.js';
import { planLive } from '../plan/from-manifest.js';
import type { PlanDocument } from '../plan/plan.js';
import { plural } from '../util/plural.js';
import { withCitus } from './batches.js';
import { withLockTimeout } from './execute.js';
import { catalogLockTimeout } from './failure.js';
import { finishHistory } from '../own/history.js';
import { recordObjectState, recordsAfter } from '../own/object-state.js';
import { OwnStateLockTimeout, type OwnWait } from '../own/own-schema.js';

/** Reads the cluster again after COMMIT, records what PostgreSQL printed of SQL objects, and requires an empty plan. */
export async function verifyConverged(
  client: pg.Client,
  m: LoadedManifest,
  plan: PlanDocument,
  file: string,
  timeouts: Parameters<typeof withLockTimeout>[1],
  shards = false,
  rehearsal = false,
): Promise<void> {
  const own: OwnWait = { lockTimeoutMs: timeouts.lockTimeoutMs };
  // What the plan's objects were declared as is worked out while the server reads the catalog.
  const declared = (): void => void plan.recordObjects;
  const afterLive = await withLockTimeout(client, timeouts, 'reading the catalog to verify', () =>
    readLiveState(client, declared, { citus: withCitus(plan) ? undefined : false }),
  );
  // A rehearsal verifies inside its transaction, before the rollback: it records nothing, and
  // reads no shards (the workers' side of its transaction is not visible to other connections).
  const recorded = rehearsal
    ? recordsAfter(plan, afterLive).out
    : await recordObjectState(client, plan, afterLive, own);
  // With --shards the shards are read again too: what apply verifies is what `plan --shards` sees.
  // On Citus the shards of every table the plan changed are read in any case: a change that did not
  // reach the workers (Citus's DDL propagation turned off by a setting, a node that missed it) is
  // not "verified".
  const touched =
    rehearsal || shards || !afterLive.citus
      ? undefined
      : new Set(tablesOf([...plan.transaction.steps, ...plan.afterCommit]).keys());
  const shardState =
    shards && !rehearsal
      ? await readShardState(client)
      : touched && touched.size > 0
        ? await readShardState(client, touched)
        : undefined;
  const after = planLive(m, { ...afterLive, recorded }, file, shardState ? { shards: shardState } : {});
  const left = [...after.transaction.steps, ...after.afterCommit];
  // A problem the next plan would refuse is not convergence either: what is verified here is what the next plan sees.
  if (left.length > 0 || after.problems.length > 0) {
    throw new CmError(
      `${rehearsal ? 'rehearsed (rolled back), but the cluster would not converge' : 'applied, but the cluster did not converge'}: planning again ${[
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

/** The transaction committed, but verifying it (or recording how it ended) failed. */
export class CommittedUnverified extends CmError {}

/**
 * Runs verify after COMMIT; records 'applied', or 'committed_not_converged' with the reason (and
 * rethrows it). A verification that could not be made is a CommittedUnverified (exit 8), recorded
 * as committed_not_converged with error code verify_failed; so is a history row that could not be
 * written after COMMIT.
 */
export async function verifyAndRecord(
  db: pg.Client,
  historyId: number,
  steps: number,
  wait: OwnWait,
  verify: () => Promise<void>,
): Promise<void> {
  const committed = `the transaction COMMITTED (${steps === 1 ? 'its step ran' : `all ${steps} steps ran`})`;
  try {
    await verify();
  } catch (e) {
    if (e instanceof CmError && e.code === 'not_converged') {
      await finishHistory(
        db,
        historyId,
        'committed_not_converged',
        { code: e.code, message: e.message, ...e.meta },
        wait,
      ).catch(() => undefined);
      throw e;
    }
    const reason = await verifyFailure(db, e, wait);
    const message = `${committed}; only verifying it failed: ${reason}. The changes are in place; run \`citus-migrate plan\` to check that planning again is empty.`;
    const recorded = await finishHistory(
      db,
      historyId,
      'committed_not_converged',
      { code: 'verify_failed', message, committed: true },
      wait,
    ).then(
      () => ` Recorded as apply #${historyId} (committed_not_converged).`,
      (r: Error) => ` Apply #${historyId} could not be recorded either and still says running (${r.message}).`,
    );
    throw new CommittedUnverified(`${message}${recorded}`, 'verify_failed', EXIT.committedUnverified, {
      committed: true,
      historyId,
      reason,
    });
  }
  try {
    await finishHistory(db, historyId, 'applied', undefined, wait);
  } catch (e) {
    throw new CommittedUnverified(
      `${committed} and planning again is empty, but recording it failed: ${(e as Error).message}. Apply #${historyId} still says running.`,
      'verify_failed',
      EXIT.committedUnverified,
      { committed: true, historyId, reason: (e as Error).message },
    );
  }
}

/** What went wrong with the verification, with who held the lock when a lock wait ran out. */
async function verifyFailure(db: pg.Client, e: unknown, wait: OwnWait): Promise<string> {
  if (e instanceof OwnStateLockTimeout) return e.message;
  const message = e instanceof Error ? e.message : String(e);
  if ((e as { code?: string }).code !== '55P03') return `reading the cluster again: ${message}`;
  return catalogLockTimeout(db, 'reading the catalog again', wait.lockTimeoutMs, e as Error);
}
