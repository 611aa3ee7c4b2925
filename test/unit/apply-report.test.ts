// What apply prints around steps that run after COMMIT: the heading says which part runs where,
// the result line the wall time of both parts (an online distribution after COMMIT is most of it).
import { describe, expect, it } from 'vitest';
import { applyEvents, resultText } from '../../src/commands/apply-events.js';
import type { ApplyResult } from '../../src/apply/run-types.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';

const step = (index: number): PlanStep => ({ index, summary: `step ${index}`, hazards: [] }) as unknown as PlanStep;
const plan = (inTx: number, after: number): PlanDocument =>
  ({
    transaction: { steps: Array.from({ length: inTx }, (_, i) => step(i + 1)), preamble: [] },
    afterCommit: Array.from({ length: after }, (_, i) => step(inTx + i + 1)),
  }) as unknown as PlanDocument;

function heading(inTx: number, after: number, rehearse = false): string {
  let out = '';
  const onEvent = applyEvents({ stdout: () => undefined, stderr: (t) => (out += t), env: {}, isTTY: false, cwd: '/' });
  onEvent({ kind: 'starting', plan: plan(inTx, after), rehearse, steps: inTx + after, target: 'db' });
  return out.split('\n')[0]!;
}

const applied = (inTx: number, ms: number, after: number[]): Extract<ApplyResult, { outcome: 'applied' }> =>
  ({
    outcome: 'applied',
    plan: plan(inTx, after.length),
    attempts: 1,
    ms,
    afterCommit: after.map((m, i) => ({ index: inTx + i + 1, summary: '', ms: m })),
    historyId: 3,
    timings: {},
  }) as unknown as Extract<ApplyResult, { outcome: 'applied' }>;

describe('apply report', () => {
  it('heads the steps with where they run', () => {
    expect(heading(4, 0)).toBe('applying 4 steps in one transaction on db ...');
    expect(heading(0, 3)).toBe('applying 3 steps after COMMIT, one at a time on db ...');
    expect(heading(2, 1)).toBe('applying 3 steps: 2 in one transaction, 1 after COMMIT on db ...');
    expect(heading(2, 1, true)).toBe('rehearsing 2 steps in one transaction on db ...');
  });

  it('counts the time after COMMIT in the total, and says how it split', () => {
    expect(resultText(applied(0, 3, [4700, 200, 10]))).toBe(
      'Applied 3 steps in 4.91s (all after COMMIT); verified: planning again is empty. Recorded as apply #3.\n',
    );
    expect(resultText(applied(2, 120, [4700]))).toBe(
      'Applied 3 steps in 4.82s (1 of them after COMMIT: the transaction 0.12s, after COMMIT 4.70s); verified: planning again is empty. Recorded as apply #3.\n',
    );
    expect(resultText(applied(2, 120, []))).toBe(
      'Applied 2 steps in 0.12s; verified: planning again is empty. Recorded as apply #3.\n',
    );
  });
});
