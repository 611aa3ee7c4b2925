// What `plan --prove` leaves out of its copy: subscriptions. Making or enabling one connects to
// its publisher and makes a replication slot there (and copies its tables' rows), which a scratch
// copy must never do; nor could the copy reach it without the connection string's variable. So
// the copy is built without them, their steps (and their comments') do not run there, and what the
// copy's plans say of them is not counted: the proof line says how many steps it left out.
import type { LiveState } from '../model/live-state.js';
import type { SqlObject } from '../model/types.js';
import { dict } from '../util/dict.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';

const ofSubscription = (o: SqlObject): boolean =>
  o.kind === 'subscription' || (o.parent?.startsWith('subscription ') ?? false);

/** The live state without its subscriptions (and their comments): what the copy is built from. */
export function withoutSubscriptions(live: LiveState): LiveState {
  const all = Object.values(live.model.objects);
  if (!all.some(ofSubscription)) return live;
  const objects = dict<SqlObject>();
  for (const o of all) if (!ofSubscription(o)) objects[o.id] = o;
  return { ...live, model: { ...live.model, objects } };
}

/** A step that makes, changes or drops a subscription, or its comment. */
export const publisherStep = (s: PlanStep): boolean =>
  ('objectKind' in s.step && s.step.objectKind === 'subscription') || s.object.startsWith('comment on subscription ');

/** The plan without its subscriptions' steps. */
export function withoutPublisherSteps(plan: PlanDocument): PlanDocument {
  if (![...plan.transaction.steps, ...plan.afterCommit].some(publisherStep)) return plan;
  return {
    ...plan,
    transaction: { ...plan.transaction, steps: plan.transaction.steps.filter((s) => !publisherStep(s)) },
    afterCommit: plan.afterCommit.filter((s) => !publisherStep(s)),
  };
}
