// Tables the cluster holds in a layout the model does not (range or append distribution): they
// are named as not managed, and a manifest that declares one gets a problem, not a plan that
// would create it again or undistribute it.
import type { ClusterModel } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import { NOT_MANAGED_TABLE_KINDS } from '../../model/not-managed.js';

/** The shape of a not-managed entry this reads (plan.ts's NotManaged). */
interface Named {
  readonly kind: string;
  readonly name: string;
}

/** A problem for each declared table the cluster has range- or append-distributed. */
export function notManagedTableProblems(desired: ClusterModel, notManaged: readonly Named[]): DiffProblem[] {
  return notManaged
    .filter((x) => NOT_MANAGED_TABLE_KINDS.has(x.kind) && desired.tables[x.name] !== undefined)
    .map((x) => ({
      code: 'table_not_managed',
      object: x.name,
      message: `is a ${x.kind} in the cluster, which citus-migrate does not manage: it cannot be declared (remove it from the manifest; it is left as it is)`,
    }));
}
