// The pure diff: desired model vs actual model -> ordered steps, plus problems and unmanaged
// objects as data. It never prompts, reads a clock or touches the network.
import { idOf, type ClusterModel, type Routine, type Table } from '../model/types.js';
import type { QualifiedName } from '../sql/quote.js';
import { distributionSteps } from './diff-distribution.js';
import { layoutSteps, schemaSteps } from './diff-layout.js';
import { onlineSteps, type OnlineOptions } from './online.js';
import { routineDefinitionSteps, routineDistributionSteps } from './diff-routines.js';
import { tableStructureSteps } from './diff-tables.js';
import type { IgnoreMatcher } from './ignore.js';
import { unmanagedObjects, unmanagedParts } from './diff-unmanaged.js';
import { constraintKey, foreignKeySteps } from './diff-foreign-keys.js';
import { prunedConstraints } from './prune-keys.js';
import { columnDropsLast } from './column-drops.js';
import { viewRenames } from './view-renames.js';
import { renames } from './renames.js';
import { pruneBlockers, pruneOrder } from './prune-order.js';
import { unmanagedSchemaSteps } from './diff-schemas.js';
import { defaultPrivilegeRevokes } from './default-privilege-revokes.js';
import { detachPartitions } from './partition-detach.js';
import { objectSteps, type RecordedObject } from './diff-objects.js';
import { quoteIdent } from '../sql/quote.js';
import { PHASES, type Step } from './steps.js';
import { phaseOf, tableOf } from './step-spec.js';
import { markUnsafeTriggers } from './unsafe-triggers.js';
import { markAccessWidening } from './access-notes.js';
import { markForeignCode } from './foreign-code.js';
import { markRecreatedDependents } from './citus-recreated.js';
import { distributionKeyProblems, nullableKeyProblems } from './key-problems.js';
import { sequenceUsers } from './sequence-users.js';
import { sequenceSteps } from './diff-sequences.js';
import { orderSteps } from './order-steps.js';
import { nameClashes } from './name-clashes.js';
import { citusAlterRefusals } from './citus-alter-refusals.js';
import { withoutOrphanedCommentDrops } from './comment-drops.js';
import type { DiffProblem } from './diff-problem.js';
import { indexRef, relationRef, routineRef, sequenceRef, tableRef, withoutArgs } from '../model/object-ref.js';
import { dict } from '../util/dict.js';

// Kept here too for callers that import it from the diff (it lives below the diff's parts).
export type { DiffProblem };

export interface DiffResult {
  readonly steps: readonly Step[];
  readonly problems: readonly DiffProblem[];
  /** Objects in the cluster the manifest does not declare: left alone unless prune. */
  readonly unmanaged: readonly string[];
}

/** Computes the ordered steps that take `actual` to `desired`. */
export function diff(
  desired: ClusterModel,
  given: ClusterModel,
  opts: {
    prune?: boolean;
    citus?: boolean;
    ignore?: IgnoreMatcher;
    recorded?: Readonly<Record<string, RecordedObject>>;
    /** The time time partitions are kept by (default: now; the diff reads no clock when given). */
    now?: Date;
    /** Which tables change online: then copies, index builds and validations go after COMMIT. */
    online?: OnlineOptions;
  } = {},
): DiffResult {
  const prune = opts.prune ?? false;
  // Renames first: the rest compares the manifest with the cluster as they leave it.
  const tableRenames = renames(desired, given);
  const views = viewRenames(desired, tableRenames.actual, opts.recorded ?? {});
  const renamed = {
    actual: views.actual,
    steps: [...tableRenames.steps, ...views.steps],
    problems: [...tableRenames.problems, ...views.problems],
  };
  const recorded = views.recorded;
  const detached = detachPartitions(desired, withoutSqlIndexes(desired, renamed.actual));
  const actual = detached.actual;
  const steps: Step[] = [...renamed.steps, ...detached.steps];
  const problems: DiffProblem[] = [...renamed.problems];

  for (const schema of desired.schemas)
    if (!actual.schemas.includes(schema)) steps.push({ kind: 'create_schema', schema });
  const tables = tableStructureSteps(desired, actual, prune, problems);
  const present = (id: string): boolean => actual.tables[id] !== undefined || tables.created.has(id);
  const keyDrops = tables.steps.filter((s) => s.kind === 'drop_constraint');
  const found = unmanagedObjects(desired, actual, opts.ignore ?? (() => false));
  const pruned = prune
    ? prunedConstraints(desired, actual, {
        ignored: opts.ignore ?? (() => false),
        changed: keyDrops,
        droppedTables: withoutDeclaredPartitions(desired, found.tables),
      })
    : { keyDrops: [], foreignKeys: new Map<string, Step>(), problems: [] };
  problems.push(...pruned.problems);
  // Foreign keys dropped (to be added again, or pruned) go before the keys they reference.
  const fks = foreignKeySteps(desired, actual, present, [...keyDrops, ...pruned.keyDrops], problems, (id, name) =>
    pruned.foreignKeys.has(constraintKey(id, name)),
  );
  const fkPrunes = [...pruned.foreignKeys].filter(([k]) => !fks.replaced.has(k));
  steps.push(...fks.drops, ...fkPrunes.map(([, s]) => s), ...tables.steps, ...pruned.keyDrops);
  // What prune drops is no longer unmanaged, and a pruned table's link through it is gone.
  for (const [k] of fkPrunes) fks.replaced.add(k);
  for (const s of pruned.keyDrops)
    if (s.kind === 'drop_constraint') fks.replaced.add(constraintKey(idOf(s.table), s.name));
  steps.push(...sequenceSteps(desired, actual, tables.created, problems));
  const routines = routineDefinitionSteps(desired, actual, problems, opts.citus ?? true);
  steps.push(...routines.steps);

  const layout = layoutSteps(desired, actual, tables.created, { prune, now: opts.now ?? new Date() }, problems);
  steps.push(...layout.steps, ...schemaSteps(desired, actual, problems));
  const distSteps = distributionSteps(desired, actual, present, problems);
  steps.push(...distSteps);
  // A routine colocated with a table this plan moves or rewrites would stay with the old group:
  // distribute it again in the same plan.
  const touched = new Set(distSteps.flatMap((s) => (s.kind === 'truncate_local_data' ? [] : (tableOf(s) ?? []))));

  steps.push(...fks.adds);
  steps.push(
    ...routineDistributionSteps(
      desired,
      actual,
      routines.dropped,
      (r) =>
        actual.routines[r.id] !== undefined ||
        (r.definition !== undefined && r.kind !== undefined) ||
        r.argTypes === undefined,
      opts.citus ?? true,
      touched,
      problems,
    ),
  );

  const objects = objectSteps(desired, actual, {
    prune,
    ignore: opts.ignore ?? (() => false),
    recorded,
    changedRelations: new Set(
      tables.steps
        .filter((s) => s.kind === 'alter_column_type' || s.kind === 'drop_column')
        .map((s) => relationRef((s as { table: QualifiedName }).table)),
    ),
    changedColumns: new Set(
      tables.steps.flatMap((s) =>
        s.kind === 'alter_column_type' || s.kind === 'drop_column'
          ? [`column ${idOf(s.table)}.${quoteIdent(s.column)}`]
          : [],
      ),
    ),
    recreatedRoutines: new Set([...routines.moved.keys()].map((id) => routineRef(withoutArgs(id)))),
    movedRoutines: routines.moved,
  });
  steps.push(...objects.steps);
  problems.push(...objects.problems);

  // A former signature this plan drops is accounted for.
  const un = {
    ...found,
    routines: found.routines.filter((r) => !routines.moved.has(r.id)),
    tables: found.tables.filter((t) => !layout.attached.includes(t.id)),
  };
  if (prune) {
    for (const r of un.routines)
      steps.push({
        kind: 'drop_routine',
        routine: r.qname,
        signature: r.id,
        routineKind: r.kind ?? 'function',
        reason: 'prune',
      });
    for (const t of pruneOrder(un.tables)) steps.push({ kind: 'drop_table', table: t.qname });
    problems.push(...pruneBlockers(un.tables, desired, actual, fks.replaced));
    const users = sequenceUsers(un.sequences, desired, actual, new Set(un.tables.map((t) => t.id)));
    for (const s of un.sequences) {
      const by = users.get(s.id);
      if (by === undefined) steps.push({ kind: 'drop_sequence', sequence: s.qname });
      else
        problems.push({
          code: 'sequence_in_use',
          object: sequenceRef(s.id),
          message: `is not declared, so prune would drop it, but the default of ${by.join(', ')} draws from it: declare the sequence, ignore it, or change the default`,
        });
    }
  }
  const schemas = unmanagedSchemaSteps(desired, actual, steps, { prune, ignored: opts.ignore ?? (() => false) });
  steps.push(...schemas.steps, ...defaultPrivilegeRevokes(actual, steps));
  const order = (s: Step): number => PHASES.indexOf(phaseOf(s));
  const phased = withoutOrphanedCommentDrops(steps)
    .map((s, i) => ({ s, i, o: order(s) }))
    .sort((a, b) => a.o - b.o || a.i - b.i)
    .map((x) => x.s);
  const ordered = orderSteps(columnDropsLast(phased), desired);
  problems.push(...nameClashes(ordered, desired, actual));
  // What steps widen, and code of other roles they run: hazards (after the triggers they pause).
  const marked = markRecreatedDependents(
    markForeignCode(
      markAccessWidening(markUnsafeTriggers(ordered, actual), desired, actual, recorded),
      desired,
      actual,
    ),
    actual,
  );
  problems.push(
    ...distributionKeyProblems(marked, actual),
    ...nullableKeyProblems(marked, actual),
    ...citusAlterRefusals(marked, desired, actual),
  );
  const sorted = opts.online ? onlineSteps(marked, actual, opts.online, problems) : marked;
  return {
    steps: sorted,
    problems,
    unmanaged: [
      ...(prune
        ? []
        : [
            ...un.tables.map((t) => tableRef(t.id)),
            ...un.routines.map((r) => routineRef(r.id)),
            ...un.sequences.map((s) => sequenceRef(s.id)),
          ]),
      ...schemas.unmanaged,
      ...objects.unmanaged,
      ...layout.unmanaged.filter((u) => !opts.ignore?.(u)),
      ...unmanagedParts(desired, actual, prune, fks.replaced).filter((u) => !opts.ignore?.(u)),
    ],
  };
}

/** The ids of `tables` that are not partitions the manifest declares (a table of its own is attached, not pruned). */
function withoutDeclaredPartitions(desired: ClusterModel, tables: readonly Table[]): Set<string> {
  const parts = new Set(
    Object.values(desired.tables).flatMap((t) =>
      (t.partitions ?? []).map((p) => idOf({ schema: t.qname.schema, name: p.name })),
    ),
  );
  return new Set(tables.filter((t) => !parts.has(t.id)).map((t) => t.id));
}

/** The actual model without the plain indexes that SQL files declare: the object diff owns those. */
function withoutSqlIndexes(desired: ClusterModel, actual: ClusterModel): ClusterModel {
  const declared = (t: Table, name: string | undefined): boolean =>
    name !== undefined && desired.objects[indexRef({ schema: t.qname.schema, name })] !== undefined;
  if (!Object.values(actual.tables).some((t) => t.indexes.some((i) => declared(t, i.name)))) return actual;
  const tables = dict<Table>();
  for (const t of Object.values(actual.tables))
    tables[t.id] = { ...t, indexes: t.indexes.filter((i) => !declared(t, i.name)) };
  return { ...actual, tables };
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
