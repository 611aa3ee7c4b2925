// A subscription that differs from its declaration: changed in place with ALTER SUBSCRIPTION
// (objects/subscription.ts), since made again it would drop its replication slot and copy its
// tables anew; what PostgreSQL cannot change in place (two_phase) is a problem.
import type { SqlObject } from '../../model/types.js';
import { outsideTransaction, subscriptionChange } from '../../objects/subscription.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/**
 * The steps that change the actual subscription into the declared one (what may run in the
 * transaction, then what must run after COMMIT: a refreshing SET PUBLICATION), or the problem.
 */
export function subscriptionAlter(d: SqlObject, a: SqlObject): Step[] | DiffProblem {
  const change = subscriptionChange(d, a);
  if ('problem' in change) return { code: 'subscription_change', object: d.id, message: change.problem };
  const step = (statements: string[]): Step[] =>
    statements.length > 0
      ? [{ kind: 'alter_object', object: d.id, objectKind: d.kind, statements, what: 'change' }]
      : [];
  return [...step(change.filter((x) => !outsideTransaction(x))), ...step(change.filter(outsideTransaction))];
}
