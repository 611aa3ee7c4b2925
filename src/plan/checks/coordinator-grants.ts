// On Citus, GRANT / REVOKE on what an extension made (its functions, tables, views, types…), on a
// procedural language or on pg_catalog's own objects reach the coordinator only: Citus propagates
// them for the objects it distributes, and an extension's members, the languages and pg_catalog's
// are none of them (a foreign data wrapper's it does propagate; docs/citus-facts.md). A plan that
// changes such privileges says so: the workers keep theirs, and a routine delegated to a worker
// runs under those. Pure.
import type { Problem } from '../../errors.js';
import type { ClusterModel } from '../../model/types.js';
import { clauses } from '../../objects/privileges.js';
import type { Step } from '../steps/steps.js';
import { sourceLocation } from '../../util/source-location.js';

const AS_WRITTEN = / as the files grant and revoke it$/;

export function coordinatorGrantWarnings(
  steps: readonly Step[],
  desired: ClusterModel,
  actual: ClusterModel,
): Problem[] {
  const prefixes = Object.values(actual.extensionTargets ?? {})
    .filter((t) => t.type !== 'FOREIGN DATA WRAPPER')
    .map((t) => `privileges ${clauses(t).name} `);
  const changed = steps.flatMap((s) =>
    (s.kind === 'create_object' || s.kind === 'alter_object' || s.kind === 'drop_object') &&
    s.objectKind === 'privileges' &&
    !s.object.startsWith('privileges foreign data wrapper ') &&
    (AS_WRITTEN.test(s.object) || prefixes.some((p) => s.object.startsWith(p)))
      ? [s.object]
      : [],
  );
  if (changed.length === 0) return [];
  const first = desired.objects[changed[0]!]?.source;
  return [
    {
      severity: 'warning',
      code: 'citus_coordinator_grant',
      path: '',
      message: `${changed.length === 1 ? changed[0] : `${changed.length} privileges (${changed.join(', ')})`} change${changed.length === 1 ? 's' : ''} on the coordinator only: Citus propagates no GRANT / REVOKE on what an extension made, on a procedural language or on pg_catalog's objects, so the workers keep theirs (a routine delegated to a worker runs under them)`,
      ...sourceLocation(first),
    },
  ];
}
