// An apply's phases, timed: what apply's result reports as `timings` and --timings prints.
import { recordPhase } from '../util/timings.js';

/** Milliseconds per phase, added up as the apply goes. */
export function stopwatch(): { timings: Record<string, number>; lap(phase: string): void } {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  return {
    timings,
    lap: (phase) => {
      const now = performance.now();
      timings[phase] = Math.round((timings[phase] ?? 0) + now - mark);
      recordPhase(phase === 'transaction' ? 'execute' : phase.replace(/_/g, ' '), mark, now);
      mark = now;
    },
  };
}
