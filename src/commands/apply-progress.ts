// What apply says while it runs, on stderr: a live line on a terminal, else a line per step
// (CI logs show which step a slow or stuck apply is in), and while one step runs long, a
// heartbeat at least every 2 s (a CI job that prints nothing for minutes looks hung, and some
// kill it). Data stays on stdout.
//
// The heartbeat's rule: on a terminal, the live line is rewritten with the step's elapsed time
// at every beat. Without one (CI logs, kept for hours), a beat is a mark appended to one line per
// minute: the line opens at the first beat with the step and its time, a beat adds " .", every
// fifth the elapsed time, and the line ends at each full minute (and with the step, or before
// a message such as a retry; the next beat opens a new one). So the
// stream hears from the step every 2 s while the log grows by one line a minute.
import type { CommandIo } from './io.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { visible } from '../util/visible.js';

export interface StepProgress {
  /** `through`: the last step sent with it (the heartbeat names them all: the server may be on any). */
  readonly onStep: (step: PlanStep, afterCommit: boolean, through?: PlanStep) => void;
  /** Ends a live line, so that what follows starts on a line of its own; stops the heartbeat. */
  readonly end: () => void;
  /** Writes a message (a retry, an interruption) on a line of its own while a step runs. */
  readonly interject: (text: string) => void;
}

/** When the heartbeat speaks: every `everyMs` of one step, from the first `everyMs`. */
export interface HeartbeatTiming {
  readonly everyMs: number;
}

/** A beat in every this many shows the elapsed time instead of a dot. */
export const BEATS_PER_STAMP = 5;
/** A heartbeat line holds this many beats (a minute, at the default 2 s). */
export const BEATS_PER_LINE = 30;

/** Every 2 s; CITUS_MIGRATE_HEARTBEAT_MS (milliseconds) sets it (for tests). */
export function heartbeatTiming(env: Readonly<Record<string, string | undefined>>): HeartbeatTiming {
  const ms = Number(env.CITUS_MIGRATE_HEARTBEAT_MS);
  return { everyMs: Number.isSafeInteger(ms) && ms > 0 ? ms : 2_000 };
}

const SUMMARY_CHARS = 60;

const seconds = (ms: number): string => `${Math.round(ms / 1000)}s`;

/**
 * `  … still running step 3/7 (create_distributed_table …), 40s` (the summary shortened; no
 * newline); with `through`, the last step sent with it: `steps 3-9/40 (…)`.
 */
export function heartbeatLine(
  index: number,
  total: number,
  summary: string,
  elapsedMs: number,
  through?: number,
): string {
  const shown = visible(summary);
  const short = shown.length > SUMMARY_CHARS ? `${shown.slice(0, SUMMARY_CHARS - 2)} …` : shown;
  const steps = through !== undefined && through > index ? `steps ${index}-${through}` : `step ${index}`;
  return `  … still running ${steps}/${total} (${short}), ${seconds(elapsedMs)}`;
}

/** What beat `n` (1, 2, …) of a step writes without a terminal, `elapsedMs` into it; `open`: a heartbeat line is open. */
export function beatText(n: number, head: () => string, elapsedMs: number, open: boolean): string {
  if (!open) return head();
  const mark = n % BEATS_PER_STAMP === 0 ? ` ${seconds(elapsedMs)}` : ' .';
  return n % BEATS_PER_LINE === 0 ? `${mark}\n` : mark;
}

/** Progress reporting for the plan's steps. */
export function stepProgress(plan: PlanDocument, io: Pick<CommandIo, 'stderr' | 'isTTY' | 'env'>): StepProgress {
  const total = plan.transaction.steps.length + plan.afterCommit.length;
  const width = String(total).length;
  const live = io.isTTY && !io.env.NO_COLOR && !io.env.CI;
  const { everyMs } = heartbeatTiming(io.env);
  let open = false; // a live line, or a heartbeat line without its newline yet
  let timer: NodeJS.Timeout | undefined;
  const stopHeartbeat = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const liveLine = (line: string, suffix: string): void => {
    const cols = (process.stderr.columns || 100) - 1 - suffix.length;
    io.stderr(`\r\x1b[K${line.length > cols ? `${line.slice(0, Math.max(cols - 1, 0))}…` : line}${suffix}`);
  };
  const startHeartbeat = (step: PlanStep, line: string, through?: PlanStep): void => {
    const started = Date.now();
    const head = (): string => heartbeatLine(step.index, total, step.summary, Date.now() - started, through?.index);
    // Each beat is timed from the step's start, so a late one does not push back the rest.
    const beat = (n: number): void => {
      timer = setTimeout(
        () => {
          const elapsed = Date.now() - started;
          if (live) liveLine(line, ` … ${seconds(elapsed)}`);
          else {
            const text = beatText(n, head, elapsed, open);
            io.stderr(text);
            open = !text.endsWith('\n');
          }
          beat(n + 1);
        },
        Math.max(0, started + n * everyMs - Date.now()),
      );
      // Never what keeps the process alive, should a path forget end().
      timer.unref();
    };
    beat(1);
  };
  const closeLine = (): void => {
    if (open) io.stderr(live ? '\r\x1b[K' : '\n');
    open = false;
  };
  return {
    onStep: (step, afterCommit, through) => {
      stopHeartbeat();
      const line = visible(
        `  [${String(step.index).padStart(width)}/${total}] ${afterCommit ? '(after COMMIT) ' : ''}${step.summary}`,
      );
      if (live) {
        liveLine(line, '');
        open = true;
      } else {
        closeLine();
        io.stderr(`${line}\n`);
      }
      startHeartbeat(step, line, through);
    },
    end: () => {
      stopHeartbeat();
      closeLine();
    },
    interject: (text) => {
      // The live line is written again at the next beat; a heartbeat line starts anew.
      closeLine();
      io.stderr(text);
    },
  };
}
