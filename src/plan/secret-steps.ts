// Which steps' statements may hold `'${env:NAME}'` placeholders for secrets: those that create a
// user mapping (its options) or create or change a subscription (its connection string). Their
// values go only into what apply sends (apply/secrets.ts), or into psql variables (format/plan-sql.ts).
import type { ObjectKind } from '../model/object-kinds.js';
import type { PlanStep } from './plan.js';

const WITH_SECRETS: ReadonlySet<ObjectKind> = new Set<ObjectKind>(['user mapping', 'subscription']);

/** Whether a plan step's statements may hold secrets' placeholders. */
export function holdsSecrets(s: Pick<PlanStep, 'step'> | undefined): boolean {
  const step = s?.step;
  return (step?.kind === 'create_object' || step?.kind === 'alter_object') && WITH_SECRETS.has(step.objectKind);
}
