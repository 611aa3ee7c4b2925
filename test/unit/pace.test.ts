// Pacing of a step after COMMIT (apply/pace.ts): a split is followed by a pause as long as it took,
// a wait for the group's writers is not, and the pauses leave no listener on the apply's signal
// (a 32-shard split pauses 31 times: Node warned of a leak past 10).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pacedRun } from '../../src/apply/pace.js';
import { SPLIT_WAIT } from '../../src/plan/split-writers.js';

const split = { kind: 'split_shards' } as const;
const took = (ms: number) => () => new Promise<void>((r) => setTimeout(r, ms));

describe('pacedRun', () => {
  it('pauses after a split as long as it took, not after the last statement nor after a wait for writers', async () => {
    const timed = async (sql: string, last: boolean): Promise<number> => {
      const t0 = performance.now();
      await pacedRun(split, sql, last, undefined, took(150));
      return performance.now() - t0;
    };
    expect(await timed('SELECT pg_catalog.citus_split_shard_by_split_points(…)', false)).toBeGreaterThanOrEqual(295);
    expect(await timed('SELECT pg_catalog.citus_split_shard_by_split_points(…)', true)).toBeLessThan(280);
    expect(await timed(`${SPLIT_WAIT}\nDECLARE …`, false)).toBeLessThan(280);
  });

  it('leaves no abort listener behind, pause after pause', async () => {
    const ac = new AbortController();
    for (let i = 0; i < 40; i++) await pacedRun(split, 'SELECT 1', false, ac.signal, took(0));
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
  });
});
