// Owners PostgreSQL would refuse to give at apply (objects/owner-objects.ts): to a role the
// server does not have (live plans: "did you mean"), or of a sequence a column owns (it follows
// its table: "cannot change owner of sequence … linked to table"). Each is a problem at the
// statement's file:line. Pure.
import type { ClusterModel } from '../../model/types.js';
import { refId } from '../../model/object-ref.js';
import { didYouMean } from '../../manifest/suggest.js';
import { ownerRole, unquotedRole } from '../../objects/owner-objects.js';
import type { DiffProblem } from '../problem.js';

export function ownerTargetProblems(desired: ClusterModel, actual?: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  const roles = actual?.roles ? new Set(actual.roles) : undefined;
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'owner') continue;
    const where = o.source !== undefined ? { where: o.source } : {};
    const role = unquotedRole(ownerRole(o));
    if (roles && !roles.has(role))
      problems.push({
        code: 'unknown_role',
        object: o.id,
        ...where,
        message: `gives it to role ${ownerRole(o)}, which the server does not have${didYouMean(role, roles)}: create the role first (roles are not managed here), or correct the name`,
      });
    const sequence = o.parent !== undefined ? refId(o.parent, 'sequence') : undefined;
    const owned = sequence !== undefined ? desired.sequences[sequence]?.ownedBy : undefined;
    if (owned)
      problems.push({
        code: 'owned_sequence_owner',
        object: o.id,
        ...where,
        message: `the sequence goes with ${owned.table}.${owned.column} (OWNED BY), whose table's owner it always has (PostgreSQL refuses ALTER SEQUENCE … OWNER TO on it): give the table to the role instead`,
      });
  }
  return problems;
}
