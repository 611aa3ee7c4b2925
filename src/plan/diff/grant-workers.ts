// On Citus, GRANT / REVOKE on what an extension made (its functions, tables, views, types…), on a
// procedural language or on pg_catalog's own objects reach the coordinator only: Citus propagates
// them for the objects it distributes, and an extension's members, the languages and pg_catalog's
// are none of them (a foreign data wrapper's it does propagate; docs/citus-facts.md). Each step
// that changes such privileges on the coordinator runs on every worker too, after COMMIT (a
// routine delegated to a worker runs under the worker's), and where a worker's ACLs differ from the
// coordinator's (introspect/worker-acls.ts), the statements that make them the same run first. Pure.
import type { ClusterModel } from '../../model/types.js';
import { AS_WRITTEN, privilegesIdPrefix } from '../../objects/extension-privileges.js';
import type { Step } from '../steps/steps.js';

/** Privileges objects' ids on the coordinator only: of what the cluster's extensions or initdb made, or run as the files wrote them after an extension the plan creates. */
function coordinatorOnly(actual: ClusterModel): (object: string) => boolean {
  const prefixes = Object.values(actual.extensionTargets ?? {})
    .filter((t) => t.type !== 'FOREIGN DATA WRAPPER')
    .map(privilegesIdPrefix);
  return (object) =>
    !object.startsWith('privileges foreign data wrapper ') &&
    (object.endsWith(AS_WRITTEN) || prefixes.some((p) => object.startsWith(p)));
}

/** `steps` with, after COMMIT, each such privileges step on every worker too. */
export function withGrantWorkerSteps(actual: ClusterModel, steps: readonly Step[]): Step[] {
  const only = coordinatorOnly(actual);
  const onWorkers = steps.flatMap((s): Step[] =>
    (s.kind === 'create_object' || s.kind === 'alter_object' || s.kind === 'drop_object') &&
    s.objectKind === 'privileges' &&
    only(s.object)
      ? [
          {
            kind: 'grant_on_workers',
            object: s.object,
            statements: s.statements,
            ...('searchPath' in s && s.searchPath !== undefined ? { searchPath: s.searchPath } : {}),
            runAfterCommit: true,
          },
        ]
      : [],
  );
  // A worker whose ACLs differ from the coordinator's (changed there by hand): made the coordinator's
  // first, then the plan's own changes follow there as on the coordinator.
  const drift = (actual.workerGrantDrift ?? []).map((d): Step => ({
    kind: 'grant_on_workers',
    object: d.object,
    statements: d.statements,
    differsOn: d.nodes,
    runAfterCommit: true,
  }));
  return onWorkers.length > 0 || drift.length > 0 ? [...steps, ...drift, ...onWorkers] : [...steps];
}
