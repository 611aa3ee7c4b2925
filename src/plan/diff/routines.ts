// Routines: create missing ones, replace changed bodies (or drop and create when the result
// type or arguments change), and (re)distribute them with every argument explicit.
import type { ClusterModel, Routine, RoutineDistribution } from '../../model/types.js';
import { compareRoutines, orReplace, routineBody } from '../../sql/normalize.js';
import { lineDiff } from '../../util/line-diff.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { routineRef } from '../../model/object-ref.js';

/** True when two tables share a colocation group in the actual cluster. */
export function colocated(actual: ClusterModel, a: string, b: string): boolean {
  if (a === b) return true;
  const da = actual.tables[a]?.distribution;
  const db = actual.tables[b]?.distribution;
  if (da?.kind === 'hash' && db?.kind === 'hash') return da.group === db.group;
  // All reference tables share one colocation group.
  return da?.kind === 'reference' && db?.kind === 'reference';
}

function sameDistribution(
  actual: ClusterModel,
  want: RoutineDistribution,
  have: RoutineDistribution | undefined,
): boolean {
  if (!have) return false;
  if (want.argIndex !== have.argIndex) return false;
  if (want.argIndex === undefined)
    return want.colocateWith === undefined
      ? have.colocateWith === undefined
      : have.colocateWith !== undefined && colocated(actual, want.colocateWith, have.colocateWith);
  return (
    (want.forceDelegation ?? false) === (have.forceDelegation ?? false) &&
    want.colocateWith !== undefined &&
    have.colocateWith !== undefined &&
    colocated(actual, want.colocateWith, have.colocateWith)
  );
}

/**
 * The routine a declared one replaces when its argument list changed: the one routine of the
 * same schema and name in the cluster that the manifest does not declare. (Two or more such
 * overloads: none is guessed; they stay unmanaged.)
 */
function formerSignature(desired: ClusterModel, actual: ClusterModel, r: Routine): Routine | undefined {
  if (r.argTypes === undefined) return undefined;
  const same = Object.values(actual.routines).filter(
    (a) => a.qname.schema === r.qname.schema && a.qname.name === r.qname.name && desired.routines[a.id] === undefined,
  );
  return same.length === 1 ? same[0] : undefined;
}

/** A routine the plan drops that aggregates or types it does not manage are built on: PostgreSQL refuses the DROP. */
function dependentProblems(a: Routine): DiffProblem[] {
  return (a.dependents ?? []).map((d) => ({
    code: 'routine_has_dependents',
    object: routineRef(a.id),
    message: `is dropped and created again (its result type or arguments change), but ${d} depends on it and is not managed by citus-migrate: PostgreSQL refuses the DROP ("other objects depend on it"); drop ${d} first and create it again after the apply, or keep the routine's signature`,
  }));
}

/**
 * Routine definition steps. Returns the routines whose distribution a DROP removed, and every
 * routine dropped to be created again: former signature → the signature it becomes (the same
 * one for a changed result type), so what depends on it (grants) follows it.
 */
export function routineDefinitionSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  problems: DiffProblem[],
  citus = true,
): { steps: Step[]; dropped: Set<string>; moved: Map<string, string> } {
  const steps: Step[] = [];
  const dropped = new Set<string>();
  const moved = new Map<string, string>();
  for (const r of Object.values(desired.routines)) {
    const a = actual.routines[r.id];
    // Declared local on Citus: kept out of Citus's metadata, as it was read (routine `distribution` undefined).
    const searchPath = {
      ...(r.unqualifiedDefinition ? { searchPath: r.qname.schema } : {}),
      ...(citus && r.distribution === undefined ? { coordinatorOnly: true } : {}),
    };
    if (!a) {
      if (r.definition === undefined || !r.kind) {
        problems.push({
          code: 'missing_routine',
          object: r.id,
          message: 'is declared without a file (created elsewhere) but does not exist',
        });
        continue;
      }
      // Its argument list changed: CREATE alone would leave the old one beside it (calls then
      // fail with "… is not unique"), so the old signature is dropped first.
      const former = formerSignature(desired, actual, r);
      if (former) {
        problems.push(...dependentProblems(former));
        steps.push({
          kind: 'drop_routine',
          routine: former.qname,
          signature: former.id,
          routineKind: former.kind ?? 'function',
          reason: 'signature',
        });
        moved.set(former.id, r.id);
      }
      steps.push({
        kind: 'create_routine',
        routine: r.qname,
        signature: r.id,
        routineKind: r.kind,
        definition: r.definition,
        ...searchPath,
        // The routine it replaces was another role's: so is this one (its grants follow it too).
        ...(former?.owner ? { owner: former.owner.name } : {}),
      });
      continue;
    }
    if (r.definition === undefined || a.definition === undefined || !r.kind) continue;
    const cmp = compareRoutines(r.definition, a.definition);
    if (cmp === 'replace') {
      const bodyDiff = lineDiff(routineBody(a.definition), routineBody(r.definition));
      steps.push({
        kind: 'replace_routine',
        routine: r.qname,
        signature: r.id,
        routineKind: r.kind,
        definition: orReplace(r.definition),
        ...searchPath,
        ...(bodyDiff.length > 0 ? { bodyDiff } : {}),
      });
    } else if (cmp === 'recreate') {
      problems.push(...dependentProblems(a));
      steps.push({
        kind: 'drop_routine',
        routine: r.qname,
        signature: r.id,
        routineKind: a.kind ?? r.kind,
        reason: 'recreate',
      });
      moved.set(r.id, r.id);
      steps.push({
        kind: 'create_routine',
        routine: r.qname,
        signature: r.id,
        routineKind: r.kind,
        definition: r.definition,
        ...searchPath,
        // CREATE makes the applier its owner: given back to the role that owned it.
        ...(a.owner ? { owner: a.owner.name } : {}),
      });
      dropped.add(r.id);
    }
  }
  return { steps, dropped, moved };
}

/** create_distributed_function for every routine whose distribution differs. */
export function routineDistributionSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  dropped: ReadonlySet<string>,
  canExist: (r: Routine) => boolean,
  citus: boolean,
  touched: ReadonlySet<string>,
  problems: DiffProblem[],
): Step[] {
  const steps: Step[] = [];
  for (const r of Object.values(desired.routines)) {
    if (!canExist(r)) continue;
    if (r.distribution === undefined) {
      // Declared local: Citus has no way to forget a routine short of DROP (pg_dist_object).
      if (!dropped.has(r.id) && actual.routines[r.id]?.distribution) {
        problems.push({
          code: 'routine_distributed',
          object: r.id,
          message:
            'is declared local: true but Citus knows it (pg_dist_object); that is not undone by a plan: drop it and create it again, or remove local: true',
        });
      }
      continue;
    }
    const want = r.distribution;
    // "On every node" means nothing without Citus: only a distribution argument needs a step there
    // (and is then reported as needing the extension).
    if (!citus && want.argIndex === undefined) continue;
    const have = dropped.has(r.id) ? undefined : actual.routines[r.id]?.distribution;
    const moved = want.colocateWith !== undefined && touched.has(want.colocateWith);
    if (!moved && sameDistribution(actual, want, have)) continue;
    steps.push({
      kind: 'distribute_routine',
      routine: r.qname,
      ...(r.argTypes ? { signature: r.id } : {}),
      ...(want.argIndex !== undefined
        ? {
            argIndex: want.argIndex,
            colocateWith: desired.tables[want.colocateWith!]!.qname,
            forceDelegation: want.forceDelegation ?? false,
          }
        : want.colocateWith !== undefined
          ? { colocateWith: desired.tables[want.colocateWith]!.qname }
          : {}),
    });
  }
  return steps;
}
