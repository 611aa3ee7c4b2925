// A foreign table of the sql: files that inherits (CREATE FOREIGN TABLE … INHERITS (t)) from a
// table the manifest distributes, makes a reference table or adds to Citus's metadata: Citus makes
// no Citus table of a table in an inheritance tree (docs/citus-facts.md, "Table inheritance"), so
// the plan would fail. A problem instead, with where the foreign table is declared. Pure.
import type { ClusterModel } from '../../model/types.js';
import { refId, relationRef } from '../../model/object-ref.js';
import type { DiffProblem } from '../problem.js';

export function foreignInheritsProblems(desired: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'foreign table') continue;
    const own = relationRef(o.name);
    for (const dep of o.deps) {
      const id = dep === own ? undefined : refId(dep, 'relation');
      const t = id !== undefined ? desired.tables[id] : undefined;
      if (!t || t.distribution.kind === 'local' || !/\bINHERITS\b/i.test(o.create[0] ?? '')) continue;
      problems.push({
        code: 'inheritance_refused',
        object: o.id,
        message: `inherits from ${t.id}${o.source ? ` (${o.source})` : ''}, which the manifest makes a Citus table: Citus makes no Citus table of a table in an inheritance tree ("non-distributed tables cannot inherit distributed tables"); keep ${t.id} local`,
      });
    }
  }
  return problems;
}
