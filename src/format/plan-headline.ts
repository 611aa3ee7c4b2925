// The first thing every format says about a plan. "No changes" only when nothing differs:
// problems come first, and objects the manifest does not declare are named, never hidden.
import type { PlanDocument } from '../plan/plan.js';
import { plural } from '../util/plural.js';

/** One sentence: problems, else the step count, else whether anything in the cluster is unmanaged. */
export function planHeadline(plan: PlanDocument): string {
  const steps = plan.transaction.steps.length + plan.afterCommit.length;
  if (plan.problems.length > 0) {
    return `${plural(plan.problems.length, 'problem')}: the plan cannot be applied until ${plan.problems.length === 1 ? 'it is' : 'they are'} fixed${steps ? ` (${plural(steps, 'step')} planned so far)` : ''}.`;
  }
  if (plan.changes) return `${plural(steps, 'step')} to apply.`;
  const also = [
    ...(plan.unmanaged.length
      ? [`${plural(plan.unmanaged.length, 'object')} the manifest does not declare (unmanaged, left alone)`]
      : []),
    ...(plan.notManaged.length
      ? [`${plural(plan.notManaged.length, 'object')} of kinds citus-migrate does not manage (not compared)`]
      : []),
  ];
  // A user mapping's or subscription's secret whose variable is unset was not compared: never "matches" then.
  const uncompared = plan.warnings.filter((w) => w.code === 'secret_unset').length;
  const secrets = uncompared
    ? `${plural(uncompared, 'secret')} not compared (${uncompared === 1 ? 'its environment variable is' : 'their environment variables are'} unset)`
    : '';
  if (also.length > 0)
    return `No changes to what the manifest declares${secrets ? `, with ${secrets}` : ''}; the cluster also holds ${also.join(' and ')}.`;
  if (secrets) return `No changes to what could be compared: ${secrets}.`;
  return 'No changes: the cluster matches the manifest.';
}
