// The parts of the diff, in the order diff/diff.ts folds them: each reads the context (the models, the
// steps so far, the facts earlier parts found) and returns what it adds. One concern per part; a
// new concern is a function here (or in a file of its own) and a line in PARTS. The order is the
// steps' order within a phase (diff/diff.ts sorts by phase, stably). Pure.
import { idOf, partitionQname, type ClusterModel, type Table } from '../../model/types.js';
import { indexRef } from '../../model/object-ref.js';
import { dict } from '../../util/dict.js';
import { collecting, fact, type DiffContext, type DiffPart, type PartResult } from './context.js';
import { distributionSteps } from './distribution.js';
import { constraintKey } from '../../model/key-names.js';
import { foreignKeySteps } from './foreign-keys.js';
import { layoutSteps, schemaSteps } from './layout.js';
import { routineDefinitionSteps, routineDistributionSteps } from './routines.js';
import { sequenceSteps } from './sequences.js';
import { tableStructureSteps } from './tables.js';
import { unmanagedObjects } from './unmanaged.js';
import { detachPartitions } from './partition-detach.js';
import { partitionIndexNameSteps } from './partition-index-names.js';
import { prunedConstraints } from './prune-keys.js';
import { renames } from './renames.js';
import { tableOf } from '../steps/step-spec.js';
import type { Step } from '../steps/steps.js';
import { viewRenames } from './view-renames.js';
import { objectsPart, prunePart, unmanagedSchemasPart } from './parts-late.js';
import { isolationPart } from './isolation.js';

/** Renames first (tables, columns, indexes, sequences, then views): the rest compares with the cluster as they leave it. */
function renamesPart(ctx: DiffContext): PartResult {
  const tables = renames(ctx.desired, ctx.actual);
  const views = viewRenames(ctx.desired, tables.actual, ctx.recorded);
  return {
    actual: views.actual,
    recorded: views.recorded,
    steps: [...tables.steps, ...views.steps],
    problems: [...tables.problems, ...views.problems],
  };
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

/** Partitions the manifest moves to another parent, or declares as tables of their own: detached first. */
function detachPart(ctx: DiffContext): PartResult {
  const detached = detachPartitions(ctx.desired, withoutSqlIndexes(ctx.desired, ctx.actual));
  return { actual: detached.actual, steps: detached.steps };
}

function createSchemasPart(ctx: DiffContext): PartResult {
  const missing = ctx.desired.schemas.filter((s) => !ctx.actual.schemas.includes(s));
  return { steps: missing.map((schema): Step => ({ kind: 'create_schema', schema })) };
}

/** Tables created and changed (columns, keys): emitted after the foreign keys that must go first. */
function tablesPart(ctx: DiffContext): PartResult {
  const [tables, problems] = collecting((p) => tableStructureSteps(ctx.desired, ctx.actual, ctx.prune, p));
  return {
    problems,
    facts: {
      created: tables.created,
      tableSteps: tables.steps,
      keyDrops: tables.steps.filter((s) => s.kind === 'drop_constraint'),
      found: unmanagedObjects(ctx.desired, ctx.actual, ctx.ignore),
    },
  };
}

/** The ids of `tables` that are not partitions the manifest declares (a table of its own is attached, not pruned). */
function withoutDeclaredPartitions(desired: ClusterModel, tables: readonly Table[]): Set<string> {
  const parts = new Set(
    Object.values(desired.tables).flatMap((t) => (t.partitions ?? []).map((p) => idOf(partitionQname(t, p)))),
  );
  return new Set(tables.filter((t) => !parts.has(t.id)).map((t) => t.id));
}

const present =
  (ctx: DiffContext) =>
  (id: string): boolean =>
    ctx.actual.tables[id] !== undefined || fact(ctx, 'created').has(id);

/**
 * Foreign keys dropped (to be added again, or pruned) go before the keys they reference, then the
 * table steps, then the keys prune drops; the foreign keys to add wait for distribution.
 */
function foreignKeysPart(ctx: DiffContext): PartResult {
  const keyDrops = fact(ctx, 'keyDrops');
  const pruned = ctx.prune
    ? prunedConstraints(ctx.desired, ctx.actual, {
        ignored: ctx.ignore,
        changed: keyDrops,
        droppedTables: withoutDeclaredPartitions(ctx.desired, fact(ctx, 'found').tables),
      })
    : { keyDrops: [], foreignKeys: new Map<string, Step>(), problems: [] };
  const [fks, problems] = collecting((p) =>
    foreignKeySteps(ctx.desired, ctx.actual, present(ctx), [...keyDrops, ...pruned.keyDrops], p, (id, name) =>
      pruned.foreignKeys.has(constraintKey(id, name)),
    ),
  );
  const fkPrunes = [...pruned.foreignKeys].filter(([k]) => !fks.replaced.has(k));
  // What prune drops is no longer unmanaged, and a pruned table's link through it is gone.
  const replaced = new Set(fks.replaced);
  for (const [k] of fkPrunes) replaced.add(k);
  for (const s of pruned.keyDrops) if (s.kind === 'drop_constraint') replaced.add(constraintKey(idOf(s.table), s.name));
  return {
    steps: [...fks.drops, ...fkPrunes.map(([, s]) => s), ...fact(ctx, 'tableSteps'), ...pruned.keyDrops],
    problems: [...pruned.problems, ...problems],
    facts: { replaced, foreignKeyAdds: fks.adds },
  };
}

function sequencesPart(ctx: DiffContext): PartResult {
  const [steps, problems] = collecting((p) => sequenceSteps(ctx.desired, ctx.actual, fact(ctx, 'created'), p));
  return { steps, problems };
}

function routineDefinitionsPart(ctx: DiffContext): PartResult {
  const [r, problems] = collecting((p) => routineDefinitionSteps(ctx.desired, ctx.actual, p, ctx.citus));
  return { steps: r.steps, problems, facts: { routines: { dropped: r.dropped, moved: r.moved } } };
}

/** Distributed schemas, access methods, partitions, time partitions; then the schemas' own changes. */
function layoutPart(ctx: DiffContext): PartResult {
  const [layout, problems] = collecting((p) =>
    layoutSteps(ctx.desired, ctx.actual, fact(ctx, 'created'), { prune: ctx.prune, now: ctx.now }, p),
  );
  const [schemas, more] = collecting((p) => schemaSteps(ctx.desired, ctx.actual, p));
  return {
    steps: [...layout.steps, ...schemas],
    problems: [...problems, ...more],
    facts: { layout: { attached: layout.attached, unmanaged: layout.unmanaged } },
  };
}

/** The names of partitions' copies of their parent's indexes (after the tables and partitions this plan makes). */
function partitionIndexNamesPart(ctx: DiffContext): PartResult {
  const [steps, problems] = collecting((p) => partitionIndexNameSteps(ctx.desired, ctx.actual, ctx.steps, p));
  return { steps, problems };
}

function distributionPart(ctx: DiffContext): PartResult {
  const [steps, problems] = collecting((p) => distributionSteps(ctx.desired, ctx.actual, present(ctx), p));
  // A routine colocated with a table this plan moves or rewrites would stay with the old group.
  const touched = new Set(steps.flatMap((s) => (s.kind === 'truncate_local_data' ? [] : (tableOf(s) ?? []))));
  return { steps, problems, facts: { touched } };
}

const foreignKeyAddsPart = (ctx: DiffContext): PartResult => ({ steps: fact(ctx, 'foreignKeyAdds') });

/** Routines distributed (again, when colocated with a table this plan moves). */
function routineDistributionPart(ctx: DiffContext): PartResult {
  const [steps, problems] = collecting((p) =>
    routineDistributionSteps(
      ctx.desired,
      ctx.actual,
      new Set(fact(ctx, 'routines').dropped),
      (r) =>
        ctx.actual.routines[r.id] !== undefined ||
        (r.definition !== undefined && r.kind !== undefined) ||
        r.argTypes === undefined,
      ctx.citus,
      new Set(fact(ctx, 'touched')),
      p,
    ),
  );
  return { steps, problems };
}

/** The parts of the diff, in order. */
export const PARTS: readonly DiffPart[] = [
  { name: 'renames', run: renamesPart },
  { name: 'detached partitions', run: detachPart },
  { name: 'schemas created', run: createSchemasPart },
  { name: 'tables', run: tablesPart },
  { name: 'foreign keys dropped, table steps', run: foreignKeysPart },
  { name: 'sequences', run: sequencesPart },
  { name: 'routine definitions', run: routineDefinitionsPart },
  { name: 'layout', run: layoutPart },
  { name: 'partition index names', run: partitionIndexNamesPart },
  { name: 'distribution', run: distributionPart },
  { name: 'isolated tenants', run: isolationPart },
  { name: 'foreign keys added', run: foreignKeyAddsPart },
  { name: 'routine distribution', run: routineDistributionPart },
  { name: 'objects of sql: files', run: objectsPart },
  { name: 'prune', run: prunePart },
  { name: 'unmanaged schemas, default privileges', run: unmanagedSchemasPart },
];
