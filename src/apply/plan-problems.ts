// apply refuses a plan with problems before anything runs, each located in the project's files
// (file:line) as plan shows them.
import { CmError, EXIT } from '../errors.js';
import type { PlanDocument } from '../plan/plan.js';
import { locatePlanProblems } from '../plan/problem-places.js';

export async function refusePlanProblems(
  plan: PlanDocument,
  locate: (path: readonly (string | number)[]) => Promise<string | undefined>,
): Promise<void> {
  if (plan.problems.length === 0) return;
  await locatePlanProblems(plan, locate);
  throw new CmError(
    `the plan has problems; nothing was run\n${plan.problems.map((p) => `  ${p.where ? `${p.where}: ` : ''}${p.object}: ${p.message}`).join('\n')}`,
    'plan_problems',
    EXIT.error,
    { problems: plan.problems },
  );
}
