// What apply says while it runs, on stderr: a live line on a terminal, else a line per step
// (CI logs show which step a slow or stuck apply is in). Data stays on stdout.
import type { CommandIo } from '../commands/io.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';

export interface StepProgress {
  readonly onStep: (step: PlanStep, afterCommit: boolean) => void;
  /** Ends a live line, so that what follows starts on a line of its own. */
  readonly end: () => void;
}

/** Progress reporting for the plan's steps. */
export function stepProgress(plan: PlanDocument, io: Pick<CommandIo, 'stderr' | 'isTTY' | 'env'>): StepProgress {
  const total = plan.transaction.steps.length + plan.afterCommit.length;
  const width = String(total).length;
  const live = io.isTTY && !io.env.NO_COLOR && !io.env.CI;
  let open = false;
  return {
    onStep: (step, afterCommit) => {
      const line = `  [${String(step.index).padStart(width)}/${total}] ${afterCommit ? '(after COMMIT) ' : ''}${step.summary}`;
      if (live) {
        const cols = (process.stderr.columns || 100) - 1;
        io.stderr(`\r\x1b[K${line.length > cols ? `${line.slice(0, cols - 1)}…` : line}`);
        open = true;
      } else {
        io.stderr(`${line}\n`);
      }
    },
    end: () => {
      if (open) io.stderr('\r\x1b[K');
      open = false;
    },
  };
}
