// What apply says while it runs, on stderr: a live line on a terminal, else a line per step
// (CI logs show which step a slow or stuck apply is in), and while one step runs long, a
// heartbeat line now and then (a CI job that prints nothing for minutes looks hung, and some
// kill it). Data stays on stdout.
import type { CommandIo } from '../commands/io.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { visible } from '../util/visible.js';

export interface StepProgress {
  readonly onStep: (step: PlanStep, afterCommit: boolean) => void;
  /** Ends a live line, so that what follows starts on a line of its own; stops the heartbeat. */
  readonly end: () => void;
}

/** When the heartbeat speaks: first after `firstMs` of one step, then every `everyMs`. */
export interface HeartbeatTiming {
  readonly firstMs: number;
  readonly everyMs: number;
}

/** 10 s, then every 30 s; CITUS_MIGRATE_HEARTBEAT_MS (milliseconds) sets both (for tests). */
export function heartbeatTiming(env: Readonly<Record<string, string | undefined>>): HeartbeatTiming {
  const ms = Number(env.CITUS_MIGRATE_HEARTBEAT_MS);
  return Number.isSafeInteger(ms) && ms > 0 ? { firstMs: ms, everyMs: ms } : { firstMs: 10_000, everyMs: 30_000 };
}

const SUMMARY_CHARS = 60;

/** `  … still running step 3/7 (create_distributed_table …), 40s` (the summary shortened). */
export function heartbeatLine(index: number, total: number, summary: string, elapsedMs: number): string {
  const shown = visible(summary);
  const short = shown.length > SUMMARY_CHARS ? `${shown.slice(0, SUMMARY_CHARS - 2)} …` : shown;
  return `  … still running step ${index}/${total} (${short}), ${Math.round(elapsedMs / 1000)}s\n`;
}

/** Progress reporting for the plan's steps. */
export function stepProgress(plan: PlanDocument, io: Pick<CommandIo, 'stderr' | 'isTTY' | 'env'>): StepProgress {
  const total = plan.transaction.steps.length + plan.afterCommit.length;
  const width = String(total).length;
  const live = io.isTTY && !io.env.NO_COLOR && !io.env.CI;
  const timing = heartbeatTiming(io.env);
  let open = false;
  let timer: NodeJS.Timeout | undefined;
  const stopHeartbeat = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const startHeartbeat = (step: PlanStep): void => {
    const started = Date.now();
    const beat = (delay: number): void => {
      timer = setTimeout(() => {
        io.stderr(heartbeatLine(step.index, total, step.summary, Date.now() - started));
        beat(timing.everyMs);
      }, delay);
      // Never what keeps the process alive, should a path forget end().
      timer.unref();
    };
    beat(timing.firstMs);
  };
  return {
    onStep: (step, afterCommit) => {
      stopHeartbeat();
      const line = visible(
        `  [${String(step.index).padStart(width)}/${total}] ${afterCommit ? '(after COMMIT) ' : ''}${step.summary}`,
      );
      if (live) {
        const cols = (process.stderr.columns || 100) - 1;
        io.stderr(`\r\x1b[K${line.length > cols ? `${line.slice(0, cols - 1)}…` : line}`);
        open = true;
      } else {
        io.stderr(`${line}\n`);
        startHeartbeat(step);
      }
    },
    end: () => {
      stopHeartbeat();
      if (open) io.stderr('\r\x1b[K');
      open = false;
    },
  };
}
