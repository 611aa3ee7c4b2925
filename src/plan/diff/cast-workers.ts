// On Citus, the casts on the workers (steps/casts-spec.ts): each cast the plan makes or drops on
// the coordinator is made or dropped on every worker too, and a declared cast the coordinator has
// but a worker lacks (introspect/worker-casts.ts read them) is made there. A cast's function must
// be on the workers for that: one the manifest keeps on the coordinator (a function of a `sql:`
// file, or `local: true`) is a plan problem. Pure.
import { OBJECT_SPEC } from '../../model/object-spec.js';
import { refId, routineRef } from '../../model/object-ref.js';
import { idOf, type ClusterModel, type SqlObject } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { phaseOf } from '../steps/step-spec.js';

const dropPhaseOf = (s: Step): 'drop_objects' | 'prune' | 'prune_types' => {
  const p = phaseOf(s);
  return p === 'prune' || p === 'prune_types' ? p : 'drop_objects';
};

const castName = (object: string): string => refId(object, 'cast') ?? object;

/** The routines a cast's function may be (its name's overloads the manifest declares), when all are local. */
function localFunction(desired: ClusterModel, cast: SqlObject): string | undefined {
  for (const dep of cast.deps) {
    const name = refId(dep, 'routine');
    if (name === undefined) continue;
    const overloads = Object.values(desired.routines).filter((r) => routineRef(idOf(r.qname)) === dep);
    if (overloads.length > 0 && overloads.every((r) => r.distribution === undefined)) return name;
  }
  return undefined;
}

/**
 * `steps` with the workers' steps: a cast dropped (or dropped to be made again) is dropped on the
 * workers right before, in the plan (a DROP FUNCTION of its function reaches the workers, where
 * the cast would hold it; not undone should the plan fail: the next plan makes it there again);
 * one made is made there after COMMIT.
 */
export function withCastWorkerSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  steps: readonly Step[],
  problems: DiffProblem[],
): Step[] {
  const withDrops = steps.flatMap((s): Step[] =>
    s.kind === 'drop_object' && OBJECT_SPEC[s.objectKind].notPropagated
      ? [{ kind: 'cast_on_workers', cast: castName(s.object), dropPhase: dropPhaseOf(s) }, s]
      : [s],
  );
  return [...withDrops, ...castMakes(desired, actual, steps, problems)];
}

function castMakes(
  desired: ClusterModel,
  actual: ClusterModel,
  steps: readonly Step[],
  problems: DiffProblem[],
): Step[] {
  const out: Step[] = [];
  const made = new Set<string>();
  const make = (d: SqlObject, missingOn?: readonly string[]): void => {
    const fn = localFunction(desired, d);
    if (fn !== undefined) {
      problems.push({
        code: 'cast_function_local',
        object: d.id,
        ...(d.source !== undefined ? { where: d.source } : {}),
        message: `Citus does not propagate casts, so the plan makes it on every worker too, where its function ${fn} must be: the manifest keeps that function on the coordinator (a function of a sql: file, or local: true); declare it under routines: (without local: true, it is created on every node)`,
      });
      return;
    }
    out.push({
      kind: 'cast_on_workers',
      runAfterCommit: true,
      cast: castName(d.id),
      statements: d.create,
      ...(d.searchPath !== undefined ? { searchPath: d.searchPath } : {}),
      ...(missingOn ? { missingOn } : {}),
    });
  };
  for (const s of steps) {
    if (s.kind !== 'create_object' || !OBJECT_SPEC[s.objectKind].notPropagated) continue;
    made.add(s.object);
    const d = desired.objects[s.object];
    if (d) make(d);
  }

  for (const d of Object.values(desired.objects)) {
    const a = actual.objects[d.id];
    if (OBJECT_SPEC[d.kind].notPropagated && !made.has(d.id) && a?.missingOn?.length) make(d, a.missingOn);
  }
  return out;
}
