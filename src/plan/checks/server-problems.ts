// A foreign server the plan drops (to create it again, or pruned) while a user mapping whose
// options the planning role may not read is on it (the others are managed, and made again with
// it): PostgreSQL refuses DROP SERVER then, so the plan would fail. A plan problem instead.
import type { NotManaged } from '../../model/not-managed.js';
import { serverRef } from '../../model/object-ref.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** A problem for each foreign server a step drops that user mappings are on. */
export function serverInUseProblems(steps: readonly Step[], notManaged: readonly NotManaged[]): DiffProblem[] {
  const problems: DiffProblem[] = [];
  for (const s of steps) {
    if (s.kind !== 'drop_object' || s.objectKind !== 'foreign server') continue;
    const server = s.object.slice('foreign server '.length);
    const mappings = notManaged.filter((x) => x.kind === 'user mapping' && x.name.endsWith(` server ${server}`));
    if (mappings.length === 0) continue;
    problems.push({
      code: 'server_in_use',
      object: serverRef(server),
      message: `user mappings whose options this role may not read are on it (${mappings.map((m) => m.name).join('; ')}): PostgreSQL cannot drop a server that has them, and citus-migrate cannot make them again; plan as a role that may read them (a superuser, or the server's owner), or change the server with ALTER SERVER by hand`,
    });
  }
  return problems;
}
