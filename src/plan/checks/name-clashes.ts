// A relation the plan creates under a name the database already gives another relation that the
// plan does not drop (a table becoming a view without prune): PostgreSQL would refuse the CREATE
// ("relation … already exists"), so it is a plan problem, never a failed apply.
import type { ClusterModel } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import { objectOf } from '../steps/step-spec.js';
import { providesOf, removesOf } from '../steps/step-names.js';
import type { Step } from '../steps/steps.js';
import { refId, relationRef, tableRef } from '../../model/object-ref.js';

/** Problems for steps that create a relation whose name an existing relation holds and no step drops. */
export function nameClashes(steps: readonly Step[], desired: ClusterModel, actual: ClusterModel): DiffProblem[] {
  const held = new Map<string, string>();
  for (const t of Object.values(actual.tables)) held.set(relationRef(t.id), tableRef(t.id));
  for (const o of Object.values(actual.objects)) for (const p of o.provides) held.set(p, o.id);
  const removed = new Set(steps.flatMap(removesOf));
  const problems: DiffProblem[] = [];
  for (const s of steps) {
    for (const name of providesOf(s, desired)) {
      const holder = held.get(name);
      if (refId(name, 'relation') === undefined || holder === undefined || removed.has(name)) continue;
      problems.push({
        code: 'name_taken',
        object: objectOf(s),
        message: `cannot be created: ${holder} has its name and this plan does not drop it (an object changing kind): drop it first, or plan with prune`,
      });
    }
  }
  return problems;
}
