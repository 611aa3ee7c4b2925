// How steps after COMMIT hold the application's writes, and for how long. The swaps ending an
// online change (catalog only, ACCESS EXCLUSIVE on every shard) wait for a lock at most 200 ms,
// then retry once the sessions in the way are gone: writes queue behind them. An autovacuum is
// such a session after a fill (every row of every shard written again): PostgreSQL cancels one
// that blocks a lock request, but only once the request has waited deadlock_timeout (1 s), so
// under a 200 ms lock_timeout it never did, and the swap failed after its retries while
// autovacuum went from shard to shard (perf:disruption, 6,000,000 rows: 2 runs of 3). A swap
// run by a superuser sets deadlock_timeout to 10 ms (on the workers too: SET LOCAL is
// propagated), so the autovacuum in its way is cancelled, as PostgreSQL would after a second.
// Steps whose statements each hold some of the application's writes for a while (a shard split
// holds its shard's while it is copied): after COMMIT each statement is followed by a pause as
// long as it took, so the writes it held catch up before the next one holds others. Without it,
// a steady workload's clients pile up behind one shard after another and its latency grows for
// the whole step (perf:disruption, a 6,000,000-row group split from 32 to 64 shards).
import type { Queryable } from '../db/connect.js';
import type { PlanStep } from '../plan/plan.js';
import { SPLIT_WAIT } from '../plan/split-writers.js';

const PACED: ReadonlySet<string> = new Set(['split_shards']);
const SWAPS: ReadonlySet<string> = new Set(['finish_backfill', 'finish_retype']);
const SWAP_LOCK_MS = 200;
const SWAP_DEADLOCK_MS = 10;

/** The lock_timeout of a step run in a transaction of its own after COMMIT. */
export const afterCommitLockMs = (step: Pick<PlanStep, 'kind'>, lockTimeoutMs: number): number =>
  SWAPS.has(step.kind) ? Math.min(lockTimeoutMs || SWAP_LOCK_MS, SWAP_LOCK_MS) : lockTimeoutMs;

/** The SET LOCAL of deadlock_timeout a swap runs with when its role is a superuser (PGC_SUSET: asked first), else none. */
export async function swapDeadlockSql(step: Pick<PlanStep, 'kind'>, db: Queryable): Promise<string[]> {
  if (!SWAPS.has(step.kind)) return [];
  const r = await db.query(`SELECT pg_catalog.current_setting('is_superuser'::pg_catalog.text) AS su`);
  return (r.rows[0] as { su?: string } | undefined)?.su === 'on'
    ? [`SET LOCAL deadlock_timeout = ${SWAP_DEADLOCK_MS}`]
    : [];
}

/** Runs one of the step's statements; a paced step's waits as long again after it unless it is the last (or a wait for writers: split-writers.ts). */
export async function pacedRun<T>(
  step: Pick<PlanStep, 'kind'>,
  sql: string,
  last: boolean,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const result = await run();
  if (PACED.has(step.kind) && !last && !sql.startsWith(SPLIT_WAIT)) await pause(performance.now() - started, signal);
  return result;
}

/** Waits `ms` (at most 10 s), or until the signal aborts (its listener removed either way: a step pauses 31 times for 32 shards). */
const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, Math.min(ms, 10_000));
    signal?.addEventListener('abort', done, { once: true });
  });
