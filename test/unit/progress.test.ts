// apply's heartbeat: while one step runs long, a beat every 2 s (a mark on one line a minute
// without a terminal; the live line's elapsed time on one), its timer gone with the step.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beatText, heartbeatLine, heartbeatTiming, stepProgress } from '../../src/commands/apply-progress.js';
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

  it('beats every 2 s; CITUS_MIGRATE_HEARTBEAT_MS sets it', () => {
    expect(heartbeatTiming({})).toEqual({ everyMs: 2_000 });
    expect(heartbeatTiming({ CITUS_MIGRATE_HEARTBEAT_MS: '250' })).toEqual({ everyMs: 250 });
    expect(heartbeatTiming({ CITUS_MIGRATE_HEARTBEAT_MS: 'soon' })).toEqual({ everyMs: 2_000 });
  });

  it('shortens a long summary and escapes control characters', () => {
    expect(heartbeatLine(3, 7, 'distribute public.a', 40_400)).toBe(
      '  … still running step 3/7 (distribute public.a), 40s',
    );
    expect(heartbeatLine(1, 1, `x${'y'.repeat(80)}`, 0)).toBe(`  … still running step 1/1 (x${'y'.repeat(57)} …), 0s`);
    expect(heartbeatLine(1, 1, 'table "\x1b[8m"', 0)).toContain('table "\\x1b[8m"');
  });

  it('names the steps sent with it in one message: the server may be on any of them', () => {
    expect(heartbeatLine(3, 40, 'comment on table app.t', 4_000, 9)).toBe(
      '  … still running steps 3-9/40 (comment on table app.t), 4s',
    );
    expect(heartbeatLine(3, 40, 'comment on table app.t', 4_000, 3)).toBe(
      '  … still running step 3/40 (comment on table app.t), 4s',
    );
  });

  it('opens a line at the first beat of each minute, a dot per beat, the time every fifth, a newline at the minute', () => {
    const head = (): string => 'HEAD';
    const open = (n: number): boolean => n % 30 !== 1;
    expect([1, 2, 4, 5, 10, 29, 30, 31, 32].map((n) => beatText(n, head, n * 2_000, open(n)))).toEqual([
      'HEAD',
      ' .',
      ' .',
      ' 10s',
      ' 20s',
      ' .',
      ' 60s\n',
      'HEAD',
      ' .',
    ]);
  });

  it('without a terminal: a beat every 2 s of one step, a line a minute; stops when the next starts and at the end', () => {
    const out: string[] = [];
    const p = stepProgress(plan, { stderr: (t) => out.push(t), isTTY: false, env: {} });
    p.onStep(plan.transaction.steps[0]!, false);
    vi.advanceTimersByTime(1_999);
    expect(out).toEqual(['  [1/3] create table public.a\n']);
    p.onStep(plan.transaction.steps[1]!, false);
    vi.advanceTimersByTime(130_000);
    const text = out.slice(1).join('');
    expect(text.split('\n')).toEqual([
      '  [2/3] distribute public.a by id',
      `  … still running step 2/3 (distribute public.a by id), 2s . . . 10s . . . . 20s . . . . 30s . . . . 40s . . . . 50s . . . . 60s`,
      `  … still running step 2/3 (distribute public.a by id), 62s . . . 70s . . . . 80s . . . . 90s . . . . 100s . . . . 110s . . . . 120s`,
      `  … still running step 2/3 (distribute public.a by id), 122s . . . 130s`,
    ]);
    // 65 beats in 130 s: one every 2 s.
    expect(out.length - 2).toBe(65);
    p.onStep(plan.afterCommit[0]!, true);
    expect(out.slice(-2)).toEqual(['\n', '  [3/3] (after COMMIT) validate foreign key\n']);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(2_000);
    p.end();
    expect(vi.getTimerCount()).toBe(0);
    expect(out.slice(-2)).toEqual(['  … still running step 3/3 (validate foreign key), 2s', '\n']);
    vi.advanceTimersByTime(100_000);
    expect(out.at(-1)).toBe('\n');
  });

  it('a retry message goes on a line of its own; the next beat opens a new heartbeat line', () => {
    const out: string[] = [];
    const p = stepProgress(plan, { stderr: (t) => out.push(t), isTTY: false, env: {} });
    p.onStep(plan.transaction.steps[0]!, false);
    vi.advanceTimersByTime(4_000);
    p.interject('lock_timeout: retrying (attempt 2 of 3)\n');
    vi.advanceTimersByTime(4_000);
    p.end();
    expect(out.join('').split('\n')).toEqual([
      '  [1/3] create table public.a',
      '  … still running step 1/3 (create table public.a), 2s .',
      'lock_timeout: retrying (attempt 2 of 3)',
      '  … still running step 1/3 (create table public.a), 6s .',
      '',
    ]);
  });

  it('a late beat does not push back the next ones (each timed from the step start)', () => {
    const out: string[] = [];
    const p = stepProgress(plan, { stderr: (t) => out.push(t), isTTY: false, env: {} });
    p.onStep(plan.transaction.steps[0]!, false);
    vi.setSystemTime(Date.now() + 5_000); // the clock moved on 5 s while the first beat waited
    vi.advanceTimersByTime(2_010); // (a late timer is due in 1 ms: fake timers count 0 as 1)
    // At 7 s: the beats of 2 s, 4 s and 6 s, not one.
    expect(out.slice(1)).toEqual(['  … still running step 1/3 (create table public.a), 7s', ' .', ' .']);
    p.end();
  });

  it('on a terminal, rewrites the live line with the elapsed time at every beat', () => {
    const out: string[] = [];
    const p = stepProgress(plan, { stderr: (t) => out.push(t), isTTY: true, env: {} });
    p.onStep(plan.transaction.steps[0]!, false);
    vi.advanceTimersByTime(4_000);
    expect(out).toEqual([
      '\r\x1b[K  [1/3] create table public.a',
      '\r\x1b[K  [1/3] create table public.a … 2s',
      '\r\x1b[K  [1/3] create table public.a … 4s',
    ]);
    p.end();
    expect(vi.getTimerCount()).toBe(0);
    expect(out.at(-1)).toBe('\r\x1b[K');
  });
});
