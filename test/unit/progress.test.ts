// apply's heartbeat: a line while one step runs long without a terminal, its timer gone with the step.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heartbeatLine, heartbeatTiming, stepProgress } from '../../src/cli/apply-progress.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';

const step = (index: number, summary: string): PlanStep => ({ index, summary }) as unknown as PlanStep;
const plan = {
  transaction: { steps: [step(1, 'create table public.a'), step(2, 'distribute public.a by id')] },
  afterCommit: [step(3, 'validate foreign key')],
} as unknown as PlanDocument;

describe('heartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to 10 s then every 30 s; CITUS_MIGRATE_HEARTBEAT_MS sets both', () => {
    expect(heartbeatTiming({})).toEqual({ firstMs: 10_000, everyMs: 30_000 });
    expect(heartbeatTiming({ CITUS_MIGRATE_HEARTBEAT_MS: '250' })).toEqual({ firstMs: 250, everyMs: 250 });
    expect(heartbeatTiming({ CITUS_MIGRATE_HEARTBEAT_MS: 'soon' })).toEqual({ firstMs: 10_000, everyMs: 30_000 });
  });

  it('shortens a long summary and escapes control characters', () => {
    expect(heartbeatLine(3, 7, 'distribute public.a', 40_400)).toBe(
      '  … still running step 3/7 (distribute public.a), 40s\n',
    );
    expect(heartbeatLine(1, 1, `x${'y'.repeat(80)}`, 0)).toBe(
      `  … still running step 1/1 (x${'y'.repeat(57)} …), 0s\n`,
    );
    expect(heartbeatLine(1, 1, 'table "\x1b[8m"', 0)).toContain('table "\\x1b[8m"');
  });

  it('speaks at 10 s, 40 s, 70 s of one step; stops when the next starts and at the end', () => {
    const out: string[] = [];
    const p = stepProgress(plan, { stderr: (t) => out.push(t), isTTY: false, env: {} });
    p.onStep(plan.transaction.steps[0]!, false);
    vi.advanceTimersByTime(9_999);
    expect(out).toEqual(['  [1/3] create table public.a\n']);
    p.onStep(plan.transaction.steps[1]!, false);
    vi.advanceTimersByTime(70_000);
    expect(out.slice(1)).toEqual([
      '  [2/3] distribute public.a by id\n',
      '  … still running step 2/3 (distribute public.a by id), 10s\n',
      '  … still running step 2/3 (distribute public.a by id), 40s\n',
      '  … still running step 2/3 (distribute public.a by id), 70s\n',
    ]);
    p.onStep(plan.afterCommit[0]!, true);
    expect(vi.getTimerCount()).toBe(1);
    p.end();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100_000);
    expect(out.at(-1)).toBe('  [3/3] (after COMMIT) validate foreign key\n');
  });

  it('is silent on a terminal (the live line is there)', () => {
    const out: string[] = [];
    const p = stepProgress(plan, { stderr: (t) => out.push(t), isTTY: true, env: {} });
    p.onStep(plan.transaction.steps[0]!, false);
    expect(vi.getTimerCount()).toBe(0);
    p.end();
  });
});
