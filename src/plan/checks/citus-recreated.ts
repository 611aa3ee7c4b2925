// What Citus drops and creates again without telling. alter_distributed_table,
// undistribute_table, alter_table_set_access_method and citus_schema_undistribute rebuild a table
// as a new one, and drop the views over it (and the views over those) to create them again from
// their definitions: owner and options come back, their grants and comments (the view's and its
// columns') do not (docs/citus-facts.md). A plan that calls one then committed, and failed
// verification; `--rehearse` passed. So such a step carries, after Citus's call, the statements
// that give those views back what the cluster had: their GRANTs and COMMENTs as read before the
// plan (their `create` statements): views the manifest leaves alone, or declares unchanged. A view
// the plan drops and creates again itself, and an attachment it changes, are its steps' own.
import type { ClusterModel, SqlObject } from '../../model/types.js';
import { relationRef } from '../../model/object-ref.js';
import type { Step } from '../steps/steps.js';
import { objectOf, tableOf } from '../steps/step-spec.js';
import { rewritten } from './foreign-code.js';
import { OBJECT_SPEC } from '../../model/object-spec.js';

/** The step kinds whose Citus function recreates the views over the tables it rebuilds. */
const RECREATING: ReadonlySet<Step['kind']> = new Set([
  'alter_distributed_table',
  'undistribute_table',
  'set_access_method',
  'undistribute_schema',
]);

/** The tables a recreating step rebuilds ("relation app.t"): its own, its group's with cascade, its schema's. */
function rebuilt(s: Step, actual: ClusterModel): string[] {
  if (s.kind === 'undistribute_schema')
    return Object.values(actual.tables)
      .filter((t) => t.qname.schema === s.schema)
      .map((t) => relationRef(t.id));
  const id = tableOf(s);
  return id === undefined ? [] : rewritten(actual, s, id).map(relationRef);
}

/** The views over `relations`, and the views over those ("relation app.v"). */
function viewsOver(relations: readonly string[], actual: ClusterModel): SqlObject[] {
  const views = Object.values(actual.objects).filter((o) => OBJECT_SPEC[o.kind].view);
  const seen = new Set<string>(relations);
  const out: SqlObject[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const v of views) {
      const ref = relationRef(v.name);
      if (seen.has(ref) || !v.deps.some((d) => seen.has(d))) continue;
      seen.add(ref);
      out.push(v);
      grew = true;
    }
  }
  return out;
}

/** Each recreating step with `restores`: the grants and comments of the views Citus recreates. */
export function markRecreatedDependents(steps: readonly Step[], actual: ClusterModel): Step[] {
  if (!steps.some((s) => RECREATING.has(s.kind))) return [...steps];
  // A view the plan itself drops and creates again (or an attachment it changes) is its own steps' business.
  const planned = new Set(steps.map(objectOf));
  return steps.map((s) => {
    if (!RECREATING.has(s.kind)) return s;
    const views = viewsOver(rebuilt(s, actual), actual).filter((v) => !planned.has(v.id));
    const parents = new Set(views.map((v) => relationRef(v.name)));
    const kept = Object.values(actual.objects)
      .filter(
        (o) => OBJECT_SPEC[o.kind].attached && o.parent !== undefined && parents.has(o.parent) && !planned.has(o.id),
      )
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (kept.length === 0) return s;
    return {
      ...s,
      restores: { objects: kept.map((o) => o.id), statements: kept.flatMap((o) => o.create) },
    };
  });
}
