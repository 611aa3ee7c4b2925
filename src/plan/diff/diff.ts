// The pure diff: desired model vs actual model -> ordered steps, plus problems and unmanaged
// objects as data. It never prompts, reads a clock or touches the network. Three stages: the
// parts (diff/parts.ts), folded in order, each adding steps, problems and facts to the context;
// the order (by phase, then what each step needs); the checks made on the ordered plan.
import type { ClusterModel, Routine, Table } from '../../model/types.js';
import { withPart, type DiffContext, type DiffOptions } from './context.js';
import { PARTS } from './parts.js';
import { unmanagedOf } from './parts-late.js';
import { onlineSteps } from '../online.js';
import { pendingBackfills, withPendingBackfills } from '../backfill.js';
import { pendingRetypes, withPendingRetypes } from '../retype-pending.js';
import { columnDropsLast } from '../order/column-drops.js';
import { PHASES, type Step } from '../steps/steps.js';
import { phaseOf } from '../steps/step-spec.js';
import { markUnsafeTriggers } from '../checks/unsafe-triggers.js';
import { markAccessWidening } from '../checks/access-notes.js';
import { markForeignCode } from '../checks/foreign-code.js';
import { markRecreatedDependents } from '../checks/citus-recreated.js';
import { distributionKeyProblems, nullableKeyProblems } from '../checks/key-problems.js';
import { orderSteps } from '../order/order-steps.js';
import { nameClashes } from '../checks/name-clashes.js';
import { citusAlterRefusals } from '../checks/citus-alter-refusals.js';
import { withoutOrphanedCommentDrops } from '../order/comment-drops.js';
import type { DiffProblem } from '../problem.js';
import { dict } from '../../util/dict.js';

// Kept here too for callers that import it from the diff (it lives below the diff's parts).
export type { DiffProblem, DiffOptions };

export interface DiffResult {
  readonly steps: readonly Step[];
  readonly problems: readonly DiffProblem[];
  /** Objects in the cluster the manifest does not declare: left alone unless prune. */
  readonly unmanaged: readonly string[];
}

/** The steps in the order they run: by phase (stably), then each after what it needs. */
function ordered(ctx: DiffContext): Step[] {
  const order = (s: Step): number => PHASES.indexOf(phaseOf(s));
  const phased = withoutOrphanedCommentDrops([...ctx.steps])
    .map((s, i) => ({ s, i, o: order(s) }))
    .sort((a, b) => a.o - b.o || a.i - b.i)
    .map((x) => x.s);
  return orderSteps(columnDropsLast(phased), ctx.desired);
}

/** The checks of the ordered plan: hazards marked on its steps (after the triggers they pause), and its problems. */
function checked(ctx: DiffContext, steps: Step[]): { steps: Step[]; problems: DiffProblem[] } {
  const { desired, actual } = ctx;
  const clashes = nameClashes(steps, desired, actual);
  const marked = markRecreatedDependents(
    markForeignCode(
      markAccessWidening(markUnsafeTriggers(steps, actual), desired, actual, ctx.recorded),
      desired,
      actual,
    ),
    actual,
  );
  return {
    steps: marked,
    problems: [
      ...clashes,
      ...distributionKeyProblems(marked, actual),
      ...nullableKeyProblems(marked, actual),
      ...citusAlterRefusals(marked, desired, actual),
    ],
  };
}

/** Computes the ordered steps that take `actual` to `desired`. */
export function diff(desired: ClusterModel, cluster: ClusterModel, opts: DiffOptions = {}): DiffResult {
  // The markers of backfills an interrupted apply left are the plan's own state, not objects to diff.
  const { actual: unfilled, pending } = pendingBackfills(cluster);
  // So are the shadow columns, triggers and markers of online type changes.
  const { actual: given, pending: retypes } = pendingRetypes(unfilled);
  let ctx: DiffContext = {
    desired,
    actual: given,
    recorded: opts.recorded ?? {},
    prune: opts.prune ?? false,
    citus: opts.citus ?? true,
    ignore: opts.ignore ?? (() => false),
    now: opts.now ?? new Date(),
    steps: [],
    problems: [],
    facts: {},
  };
  for (const part of PARTS) ctx = withPart(ctx, part.run(ctx));
  const checks = checked(ctx, ordered(ctx));
  const problems = [...ctx.problems, ...checks.problems];
  const planned = opts.online
    ? onlineSteps(checks.steps, ctx.actual, opts.online, problems, desired, retypes)
    : checks.steps;
  const steps = withPendingRetypes(withPendingBackfills(planned, pending, desired, ctx.actual), retypes);
  return { steps, problems, unmanaged: unmanagedOf(ctx) };
}

/** The cluster an offline plan starts from: empty, except what the manifest says is created elsewhere. */
export function offlineBaseline(desired: ClusterModel): ClusterModel {
  const tables = dict<Table>();
  for (const t of Object.values(desired.tables)) {
    if (!t.columns) tables[t.id] = { ...t, foreignKeys: [], distribution: { kind: 'local' } };
  }
  const routines = dict<Routine>();
  for (const r of Object.values(desired.routines)) {
    if (r.definition === undefined)
      routines[r.id] = {
        id: r.id,
        qname: r.qname,
        ...(r.kind ? { kind: r.kind } : {}),
        ...(r.argTypes ? { argTypes: r.argTypes } : {}),
      };
  }
  const schemas = new Set([
    'public',
    ...Object.values(tables).map((t) => t.qname.schema),
    ...Object.values(routines).map((r) => r.qname.schema),
  ]);
  return { schemas: [...schemas], tables, groups: {}, sequences: {}, routines, objects: {} };
}
