// What `plan --prove` found when it ran the plan on a copy of the database (apply/prove.ts), and
// the plan problems that follow from it: a step PostgreSQL or Citus refused, or a plan that did not
// converge. Pure.
import type { DiffProblem } from './problem.js';

export interface PlanProof {
  /** Where the copy was built: user@host:port/<scratch database>. */
  readonly scratch: string;
  /** The steps by which the copy's own plan differs from this one (empty: the same plan). */
  readonly copyDiffers: readonly string[];
  /** Steps that ran on the copy (the transaction's, then those after COMMIT). */
  readonly ran: number;
  /** Steps of subscriptions, not run on the copy: making one connects to its publisher (apply/prove-subscriptions.ts). */
  readonly notRun?: number;
  /** The step PostgreSQL or Citus refused, and what it said. */
  readonly refused?: {
    readonly step: number;
    readonly summary: string;
    readonly object: string;
    readonly sqlstate?: string;
    readonly message: string;
    /**
     * What the refusal names that the database holds and the copy lacks (objects of kinds
     * citus-migrate does not manage, which introspect does not copy): then it proves nothing.
     */
    readonly lacks?: readonly string[];
  };
  /** What planning again on the copy still wanted, once the plan had run (empty: it converged). */
  readonly remaining: readonly string[];
  /** Milliseconds: the copy built, the plan run, the copy read again. */
  readonly ms: number;
  /** Nodes where the scratch database could not be dropped, and why. */
  readonly leftBehind: readonly string[];
}

/**
 * Whether what the proof found is the plan's: on a copy that differs from the database (it plans
 * otherwise, or was built otherwise), or a refusal naming what the copy lacks, it proves nothing.
 */
export const conclusive = (p: PlanProof): boolean => p.copyDiffers.length === 0 && !p.refused?.lacks?.length;

/** Why a plan has nothing to prove (it has problems, or no changes), or undefined when it has. */
export const nothingToProve = (plan: {
  readonly problems: readonly unknown[];
  readonly changes: boolean;
}): string | undefined =>
  plan.problems.length > 0 ? 'the plan has problems' : !plan.changes ? 'no changes' : undefined;

/** The plan problems a proof found (none when it is not conclusive: the line says why). */
export function proofProblems(p: PlanProof): DiffProblem[] {
  if (!conclusive(p)) return [];
  if (p.refused)
    return [
      {
        code: 'refused_on_copy',
        object: p.refused.object,
        message: `step ${p.refused.step} (${p.refused.summary}) was refused when --prove ran the plan on a copy of the database: ${p.refused.sqlstate ? `${p.refused.sqlstate} ` : ''}${p.refused.message}`,
      },
    ];
  if (p.remaining.length > 0)
    return [
      {
        code: 'not_converged_on_copy',
        object: 'plan',
        message: `after --prove ran the plan on a copy of the database, planning again still wants ${p.remaining.length} step(s): ${p.remaining.slice(0, 5).join('; ')}${p.remaining.length > 5 ? '; …' : ''}`,
      },
    ];
  return [];
}

/** What happened on the copy, in a few words. */
function outcome(p: PlanProof): string {
  if (p.refused)
    return `refused at step ${p.refused.step} (${p.refused.sqlstate ? `${p.refused.sqlstate} ` : ''}${p.refused.message})`;
  return p.remaining.length > 0
    ? `did not converge (${p.remaining.length} step(s) left)`
    : 'applied, and planning again was empty';
}

/** The line a text plan ends with. */
export function proofLine(p: PlanProof): string {
  const found = p.refused || p.remaining.length > 0;
  const verdict = p.refused?.lacks?.length
    ? `not proved: step ${p.refused.step} needs ${p.refused.lacks.join(', ')}, which the copy lacks (introspect does not copy kinds citus-migrate does not manage)`
    : p.copyDiffers.length > 0 && found
      ? `not proved: ${outcome(p)}, but the copy differs from the database (${p.copyDiffers.slice(0, 3).join('; ')}${p.copyDiffers.length > 3 ? '; …' : ''}), so that may be the copy's`
      : p.refused
        ? `refused at step ${p.refused.step}`
        : outcome(p);
  const copy =
    p.copyDiffers.length > 0
      ? `; the copy planned ${p.copyDiffers.length} step(s) differently`
      : '; the copy planned the same';
  const left =
    p.leftBehind.length > 0
      ? `; the scratch database could not be dropped on: ${p.leftBehind.join(', ')} (drop it by hand)`
      : '';
  const subscriptions = p.notRun
    ? `; ${p.notRun} step(s) of subscriptions not run there, nor proved (a subscription connects to its publisher)`
    : '';
  return `Run on a copy without rows by --prove (${p.scratch}, ${(p.ms / 1000).toFixed(1)} s): ${p.ran} step(s) ran, ${verdict}${copy}${subscriptions}${left}.`;
}
