// The last parts of the diff (diff/parts.ts lists them all): the objects of the `sql:` files, what
// prune drops, the schemas and default privileges left; and what the plan names as unmanaged. Pure.
import { columnRef, relationRef, routineRef, sequenceRef, tableRef, withoutArgs } from '../../model/object-ref.js';
import type { QualifiedName } from '../../sql/quote.js';
import { collecting, fact, type DiffContext, type DiffFacts, type PartResult } from './context.js';
import { objectSteps } from './objects.js';
import { partitionIndexTablespaces } from './tablespaces.js';
import { withBaseTypeShells } from './base-types.js';
import { withCastWorkerSteps } from './cast-workers.js';
import { withGrantWorkerSteps } from './grant-workers.js';
import { unmanagedSchemaSteps } from './schemas.js';
import { unmanagedParts } from './unmanaged.js';
import { defaultPrivilegeRevokes } from './default-privilege-revokes.js';
import { pruneBlockers, pruneOrder } from '../order/prune-order.js';
import { sequenceUsers } from './sequence-users.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** Views, types, triggers, comments… of the sql: files, knowing what the table steps change. */
export function objectsPart(ctx: DiffContext): PartResult {
  const tableSteps = fact(ctx, 'tableSteps');
  const changed = tableSteps.filter((s) => s.kind === 'alter_column_type' || s.kind === 'drop_column');
  const moved = fact(ctx, 'routines').moved;
  const compared = partitionIndexTablespaces(ctx.desired, ctx.actual, ctx.recorded);
  const objects = objectSteps(compared.desired, compared.actual, {
    prune: ctx.prune,
    ignore: ctx.ignore,
    recorded: ctx.recorded,
    changedRelations: new Set(changed.map((s) => relationRef((s as { table: QualifiedName }).table))),
    changedColumns: new Set(
      changed.flatMap((s) =>
        s.kind === 'alter_column_type' || s.kind === 'drop_column' ? [columnRef(s.table, s.column)] : [],
      ),
    ),
    recreatedRoutines: new Set([...moved.keys()].map((id) => routineRef(withoutArgs(id)))),
    movedRoutines: new Map(moved),
  });
  // On Citus, the casts on the workers too (Citus does not propagate them).
  // And the privileges Citus leaves on the coordinator (an extension's, a language's, pg_catalog's).
  // A base type the plan makes starts as its shell; one it would drop is a problem.
  const baseTypes: DiffProblem[] = [];
  const made = withBaseTypeShells(objects.steps, ctx.actual.objects, baseTypes);
  const [steps, castProblems] = ctx.citus
    ? collecting((p) => withGrantWorkerSteps(ctx.actual, withCastWorkerSteps(ctx.desired, ctx.actual, made, p)))
    : [made, []];
  return {
    steps,
    problems: [...objects.problems, ...baseTypes, ...castProblems],
    facts: { objectsUnmanaged: objects.unmanaged },
  };
}

/** What the cluster holds and the manifest does not declare, less what this plan accounts for. */
function undeclared(ctx: DiffContext): DiffFacts['found'] {
  const found = fact(ctx, 'found');
  const moved = fact(ctx, 'routines').moved;
  const attached = fact(ctx, 'layout').attached;
  return {
    ...found,
    // A former signature this plan drops is accounted for; so is a table it attaches as a partition.
    routines: found.routines.filter((r) => !moved.has(r.id)),
    tables: found.tables.filter((t) => !attached.includes(t.id)),
  };
}

/** With prune: the undeclared routines, tables (in an order that drops) and sequences no default uses. */
export function prunePart(ctx: DiffContext): PartResult {
  if (!ctx.prune) return {};
  const un = undeclared(ctx);
  const steps: Step[] = [];
  const problems: DiffProblem[] = [];
  for (const r of un.routines)
    steps.push({
      kind: 'drop_routine',
      routine: r.qname,
      signature: r.id,
      routineKind: r.kind ?? 'function',
      reason: 'prune',
    });
  for (const t of pruneOrder(un.tables)) steps.push({ kind: 'drop_table', table: t.qname });
  problems.push(...pruneBlockers(un.tables, ctx.desired, ctx.actual, new Set(fact(ctx, 'replaced'))));
  const users = sequenceUsers(un.sequences, ctx.desired, ctx.actual, new Set(un.tables.map((t) => t.id)));
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
  return { steps, problems };
}

/** Schemas left empty (dropped with prune, else named), and default privileges that go with what is dropped. */
export function unmanagedSchemasPart(ctx: DiffContext): PartResult {
  const schemas = unmanagedSchemaSteps(ctx.desired, ctx.actual, [...ctx.steps], {
    prune: ctx.prune,
    ignored: ctx.ignore,
  });
  // (What the parts before it drop: the schemas' own steps are not counted, as they never were.)
  const revokes = defaultPrivilegeRevokes(ctx.actual, [...ctx.steps]);
  return { steps: [...schemas.steps, ...revokes], facts: { schemasUnmanaged: schemas.unmanaged } };
}

/** What the plan names as unmanaged once every part ran. */
export function unmanagedOf(ctx: DiffContext): string[] {
  const un = undeclared(ctx);
  return [
    ...(ctx.prune
      ? []
      : [
          ...un.tables.map((t) => tableRef(t.id)),
          ...un.routines.map((r) => routineRef(r.id)),
          ...un.sequences.map((s) => sequenceRef(s.id)),
        ]),
    ...fact(ctx, 'schemasUnmanaged'),
    ...fact(ctx, 'objectsUnmanaged'),
    ...fact(ctx, 'layout').unmanaged.filter((u) => !ctx.ignore(u)),
    ...unmanagedParts(ctx.desired, ctx.actual, ctx.prune, new Set(fact(ctx, 'replaced'))).filter((u) => !ctx.ignore(u)),
  ];
}
