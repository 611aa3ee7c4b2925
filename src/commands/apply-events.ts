// What `apply` shows while it runs, on stderr, from the library's ApplyEvents: the lock and cluster
// waits, the start line, step progress (apply-progress.ts), retries and notes; the approval
// question on the terminal; and the result on stdout (a line, or a JSON document).
import { planHeadline } from '../format/plan-headline.js';
import type { ApplyEvent, ApplyResult } from '../apply/run-types.js';
import { rehearseText } from '../apply/rehearse-note.js';
import type { CommandIo } from './io.js';
import { CmError, EXIT } from '../errors.js';
import { formatPlan } from '../format/index.js';
import type { PlanDocument } from '../plan/plan.js';
import { formatDuration } from '../util/duration.js';
import { plural } from '../util/plural.js';
import { stepProgress, type StepProgress } from './apply-progress.js';

/** The event handler that prints what the CLI has always printed on stderr. */
export function applyEvents(io: CommandIo): (event: ApplyEvent) => void {
  let progress: StepProgress | undefined;
  // While steps run, a message goes on a line of its own, not after a heartbeat's marks.
  const say = (text: string): void => (progress ? progress.interject(text) : io.stderr(text));
  return (e) => {
    switch (e.kind) {
      case 'waiting_for_lock':
        return io.stderr(`waiting up to ${formatDuration(e.waitMs)} for the apply lock, held by ${e.holder} ...\n`);
      case 'waiting_for_cluster':
        return io.stderr(
          `waiting up to ${Math.round(e.waitMs / 1000)}s for the cluster:\n${e.reasons.map((r) => `  ${r}`).join('\n')}\n`,
        );
      case 'starting':
        io.stderr(
          `${e.rehearse ? 'rehearsing' : 'applying'} ${heading(e.plan, e.rehearse, e.steps)} on ${e.target} ...\n`,
        );
        progress = stepProgress(e.plan, io);
        return;
      case 'step_started':
        return progress?.onStep(e.step, e.afterCommit, e.through);
      // A step is shown as it starts (the transaction's end together at COMMIT); the result line has the times.
      case 'step_finished':
        return;
      case 'steps_ended':
        return progress?.end();
      case 'retry':
      case 'interrupting':
        return say(`${e.message}\n`);
      case 'note':
        return say(`note: ${e.message}\n`);
      default:
        return e satisfies never;
    }
  };
}

/** Asks on the terminal; without one, approval must be given with --auto-approve. */
export async function approveOnTerminal(plan: PlanDocument, rehearse: boolean, io: CommandIo): Promise<boolean> {
  if (!io.isTTY || !io.prompt) {
    throw new CmError(
      'refusing to apply without a terminal to confirm on: review the plan and pass --auto-approve',
      'approval_required',
      EXIT.usage,
    );
  }
  io.stderr(formatPlan(plan, 'text', io.color?.stderr));
  const n = plan.transaction.steps.length + plan.afterCommit.length;
  const answer = (
    await io.prompt(`\n${rehearse ? 'Rehearse' : 'Apply'} ${n === 1 ? 'this step' : `these ${n} steps`}? [y/N] `)
  )
    .trim()
    .toLowerCase();
  return answer === 'y' || answer === 'yes';
}

/** The result line (uncoloured; ends in a newline). */
export function resultText(r: Exclude<ApplyResult, { outcome: 'not_approved' }>): string {
  if (r.outcome === 'nothing_to_do') {
    // As plan says it: never "matches" while the cluster holds what the manifest does not declare.
    const headline = planHeadline(r.plan);
    return headline.startsWith('No changes: ')
      ? 'Nothing to do: the cluster matches the manifest.\n'
      : `Nothing to do. ${headline}\n`;
  }
  if (r.outcome === 'rehearsed') return rehearseText(r.plan.transaction.steps, r.plan.afterCommit);
  const steps = r.plan.transaction.steps.length + r.plan.afterCommit.length;
  const after = r.afterCommit.length;
  // The wall time of both parts: an online distribution after COMMIT is most of it.
  const afterMs = r.afterCommit.reduce((sum, s) => sum + s.ms, 0);
  const secs = (ms: number): string => `${(ms / 1000).toFixed(2)}s`;
  const where = after
    ? ` (${
        after === steps
          ? steps === 1
            ? 'after COMMIT'
            : 'all after COMMIT'
          : `${after} of them after COMMIT: the transaction ${secs(r.ms)}, after COMMIT ${secs(afterMs)}`
      })`
    : '';
  return `Applied ${plural(steps, 'step')} in ${secs(r.ms + afterMs)}${r.attempts > 1 ? ` after ${r.attempts} attempts` : ''}${where}; verified: planning again is empty. Recorded as apply #${r.historyId}.\n`;
}

/** The JSON result document (its `outcome` as the library's result and `history` name it). */
export function resultJson(r: Exclude<ApplyResult, { outcome: 'not_approved' }>): Record<string, unknown> {
  const steps = r.plan.transaction.steps.length + r.plan.afterCommit.length;
  switch (r.outcome) {
    case 'nothing_to_do':
      return { outcome: 'nothing_to_do' };
    case 'rehearsed':
      return {
        outcome: 'rehearsed',
        steps: r.plan.transaction.steps.length,
        notRehearsed: r.plan.afterCommit.map((s) => s.index),
        ms: Math.round(r.ms),
      };
    case 'applied':
      return {
        outcome: 'applied',
        steps,
        attempts: r.attempts,
        ms: Math.round(r.ms),
        afterCommit: r.afterCommit,
        historyId: r.historyId,
        timings: r.timings,
      };
  }
}

/** "4 steps in one transaction", "2 steps after COMMIT, one at a time", "5 steps: 3 in one transaction, 2 after COMMIT". */
function heading(plan: PlanDocument, rehearse: boolean, steps: number): string {
  const inTx = plan.transaction.steps.length;
  // Rehearsing runs the transaction only.
  const after = rehearse ? 0 : plan.afterCommit.length;
  if (after === 0) return `${plural(rehearse ? inTx : steps, 'step')} in one transaction`;
  if (inTx === 0) return `${plural(after, 'step')} after COMMIT, one at a time`;
  return `${plural(steps, 'step')}: ${inTx} in one transaction, ${after} after COMMIT`;
}
