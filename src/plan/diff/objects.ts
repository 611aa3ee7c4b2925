// The diff of objects defined by SQL (views, types, indexes, constraints, triggers, policies,
// comments, extensions): one generic list diff keyed by id with per-kind change rules, then
// dependency order. A changed object is dropped and created again, and so is everything that
// depends on it (a view over a view, a comment on a view, a view over a column whose type
// changes); what cannot be rebuilt that way (an enum losing a label, a type a table uses) is a
// problem, never a failed apply. A subscription is changed in place (made again, it would drop
// its slot and copy its tables anew).
import { dict } from '../../util/dict.js';
import { partitionQname, type ClusterModel, type SqlObject } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { textSearchMappingChange } from './text-search.js';
import { enumSteps } from './enum.js';
import { domainCheckSteps } from './domain-checks.js';
import { validatedLater } from './validated-later.js';
import { childChecksFirst, dependencyOrder } from './object-order.js';
import { movedGrants } from './moved-grants.js';
import { readsChanged } from './reads-changed.js';
import { lineDiff } from '../../util/line-diff.js';
import { withoutDigests } from '../../objects/user-mapping.js';
import { subscriptionAlter } from './subscription.js';
import { partitionColumnDrop } from './partition-column-drops.js';
import { extensionChange } from './extension.js';
import { indexStatisticsChange } from './index-statistics.js';
import * as ref from '../../model/object-ref.js';
import { sameObject, type RecordedObject } from '../same-object.js';
import { ownerRole } from '../../objects/owner-objects.js';
import { givenBack, givenToReader, ownerChange, ownersFirst, readerOwners } from './owners.js';

export interface ObjectDiffContext {
  readonly prune: boolean;
  readonly ignore: (line: string) => boolean;
  /** Relation names ("relation app.t") whose columns this plan drops or retypes. */
  readonly changedRelations: ReadonlySet<string>;
  /** Those columns ("column app.t.x"): only views and policies that read them are rebuilt. */
  readonly changedColumns?: ReadonlySet<string>;
  /** Routine names ("routine app.f") this plan drops and creates again. */
  readonly recreatedRoutines: ReadonlySet<string>;
  /** Routines dropped and created again, by signature: former → new (the same for a new result type). */
  readonly movedRoutines?: ReadonlyMap<string, string>;
  readonly recorded: Readonly<Record<string, RecordedObject>>;
}

/** Steps and problems for the objects defined by SQL, plus the unmanaged ones (as plan lines). */
export function objectSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  ctx: ObjectDiffContext,
): { steps: Step[]; problems: DiffProblem[]; unmanaged: string[] } {
  const problems: DiffProblem[] = [];
  const { D, toReader } = readerOwners(desired, actual, ctx.ignore);
  // Parents a managed object may belong to: declared tables, objects and routines.
  const declared = new Set<string>([
    ...Object.values(desired.tables).flatMap((t) => [
      ref.relationRef(t.id),
      // a partition's own indexes, CHECKs, triggers, comments and grants
      ...(t.partitions ?? []).map((p) => ref.relationRef(partitionQname(t, p))),
    ]),
    ...Object.values(D).flatMap((o) => [o.id, ...o.provides]),
    ...Object.values(desired.routines).map((r) => ref.routineRef(ref.withoutArgs(r.id))),
    ...Object.values(desired.sequences).map((s) => ref.sequenceRef(s.id)),
  ]);
  // Plain indexes of a table declared with columns are the table diff's (declared or unmanaged
  // there), unless an SQL file declares them.
  const yamlIndex = new Set<string>();
  for (const t of Object.values(desired.tables)) {
    for (const i of t.indexes) if (i.name) declared.add(ref.indexRef({ schema: t.qname.schema, name: i.name }));
    if (!t.columns) continue;
    for (const x of actual.tables[t.id]?.indexes ?? []) {
      const id = ref.indexRef({ schema: t.qname.schema, name: x.name ?? '' });
      if (!D[id]) {
        yamlIndex.add(id);
        declared.add(id);
      }
    }
  }
  // An object the sql: files declare is compared even when its table is not (a not-managed one).
  const inScope = (a: SqlObject): boolean =>
    !yamlIndex.has(a.id) && (a.parent === undefined || declared.has(a.parent) || D[a.id] !== undefined);
  const A = dict<SqlObject>();
  for (const a of Object.values(actual.objects)) if (inScope(a) && !ctx.ignore(a.id)) A[a.id] = a;

  const creates: SqlObject[] = [];
  const alters: Step[] = [];
  const recreate = new Map<string, SqlObject>(); // actual objects to drop before their desired form is created
  for (const d of Object.values(D)) {
    const a = A[d.id];
    if (!a) {
      creates.push(d);
      continue;
    }
    if (d.kind === 'owner') {
      // Given to another role in place (the keyword it is written with does not count).
      if (ownerRole(d) !== ownerRole(a)) alters.push(ownerChange(d));
      continue;
    }
    if (sameObject(d, a, ctx.recorded[d.id])) continue;
    const unvalidated = d.kind === 'check constraint' ? validatedLater(d, a) : undefined;
    if (unvalidated) {
      alters.push({ kind: 'validate_constraint', ...unvalidated });
      continue;
    }
    switch (d.kind) {
      case 'privileges':
        // Revoked and granted again in place: nothing depends on a grant.
        alters.push(inPlace(d, [...(a.drop ?? []), ...d.create]));
        break;
      // Set again in place: the new setting replaces the old one.
      case 'comment':
      case 'replica identity':
      case 'cluster on':
      case 'tablespace':
      case 'sequence persistence':
        alters.push(inPlace(d, d.create));
        break;
      case 'enum': {
        const steps = enumSteps(d, a);
        if (typeof steps === 'string') problems.push({ code: 'enum_change', object: d.id, message: steps });
        else alters.push(...steps);
        break;
      }
      case 'extension':
      case 'subscription': {
        const change = d.kind === 'extension' ? extensionChange(d, a) : subscriptionAlter(d, a);
        if ('code' in change) problems.push(change);
        else alters.push(...[change].flat());
        break;
      }
      case 'text search configuration': {
        // Its mappings changed in place: what uses it (a generated column, an index) stays.
        const statements = textSearchMappingChange(d, a);
        if (statements) alters.push(inPlace(d, statements));
        else recreate.set(d.id, a);
        break;
      }
      case 'domain':
      case 'composite type':
      case 'range type': {
        const users = actual.typeUsers?.[d.provides[0]!] ?? [];
        if (users.length > 0) {
          problems.push({
            code: 'type_in_use',
            object: d.id,
            message: `differs, and ${users.map(ref.relationAsTable).join(', ')} ${users.length === 1 ? 'uses' : 'use'} it: changing it in place (ALTER DOMAIN / ALTER TYPE) is not planned; change it by hand or through a new type`,
          });
          break;
        }
        recreate.set(d.id, a);
        break;
      }
      default: {
        const stats = d.kind === 'index' && !a.invalid ? indexStatisticsChange(d, a) : undefined;
        if (stats) alters.push(stats);
        else recreate.set(d.id, a);
      }
    }
  }

  // Those dropped for their own declaration's sake (the rest below, for what they depend on).
  const itself = new Set(recreate.keys());
  // Everything that depends on what is dropped goes too, and comes back if it is declared.
  const broken = new Set<string>([...ctx.changedRelations, ...ctx.recreatedRoutines]);
  for (const a of recreate.values()) for (const p of [a.id, ...a.provides]) broken.add(p);
  const dropped = new Set<string>();
  const early = new Map<string, SqlObject>(); // unmanaged dependents pruned before what they block changes
  const followed = new Set<string>(); // grants that go with their routine to its new signature
  const domainChecks: { drops: Step[]; creates: Step[] } = { drops: [], creates: [] };
  for (let grew = true; grew;) {
    grew = false;
    for (const a of Object.values(actual.objects)) {
      if (recreate.has(a.id) || dropped.has(a.id)) continue;
      if (a.kind === 'privileges' && a.parent !== undefined && ctx.recreatedRoutines.has(a.parent)) {
        // Grants on a routine dropped and created again follow it to its new signature; grants
        // on its other overloads are untouched.
        const grants = movedGrants(a, ctx.movedRoutines ?? new Map(), desired);
        if (grants === undefined) continue;
        dropped.add(a.id);
        followed.add(a.id);
        if (grants !== 'declared' && !creates.some((c) => c.id === grants.id)) creates.push(grants);
        continue;
      }
      const hit = a.deps.find(
        (d) =>
          broken.has(d) &&
          (!ctx.changedRelations.has(d) ||
            (['view', 'materialized view', 'policy'].includes(a.kind) && readsChanged(a, d, ctx.changedColumns))),
      );
      if (!hit) continue;
      // An owner goes with its object and comes back with it (given back, or declared: below).
      if (a.kind === 'owner' && !D[a.id]) {
        dropped.add(a.id);
        continue;
      }
      if (
        a.kind === 'domain' &&
        D[a.id] &&
        ctx.recreatedRoutines.has(hit) &&
        sameObject(D[a.id]!, a, ctx.recorded[a.id])
      ) {
        const around = domainCheckSteps(a);
        domainChecks.drops.push(...around.drops);
        domainChecks.creates.push(...around.creates);
        dropped.add(a.id);
        continue;
      }
      // A sub-object goes with a parent that is dropped: nothing to do unless it is declared.
      const goesWithParent =
        a.parent !== undefined &&
        broken.has(a.parent) &&
        !ctx.changedRelations.has(a.parent) &&
        !ctx.recreatedRoutines.has(a.parent);
      if (D[a.id]) {
        recreate.set(a.id, a);
        if (!creates.some((c) => c.id === a.id)) creates.push(D[a.id]!);
      } else if (goesWithParent) dropped.add(a.id);
      else if (ctx.prune && A[a.id]) {
        dropped.add(a.id);
        early.set(a.id, a);
      } else {
        problems.push({
          code: 'dependent_object',
          object: a.id,
          message: `depends on ${ref.refId(hit, 'relation') ?? hit}, which this plan drops or changes, and the manifest does not declare it: declare it (so it is created again) or drop it first`,
        });
        dropped.add(a.id);
        continue;
      }
      for (const p of [a.id, ...a.provides]) broken.add(p);
      grew = true;
    }
  }
  for (const id of recreate.keys()) if (!creates.some((c) => c.id === id)) creates.push(D[id]!);

  const unmanaged: string[] = [];
  const prunes: SqlObject[] = [];
  for (const a of Object.values(A)) {
    if (D[a.id] || recreate.has(a.id) || early.has(a.id) || followed.has(a.id) || toReader.has(a.id)) continue;
    if (ctx.prune) prunes.push(a);
    else unmanaged.push(a.id);
  }

  const steps: Step[] = [...domainChecks.drops];
  // Drops: dependents first (the reverse of creation order over the actual dependencies).
  // (An owner is nothing to drop: its object goes.)
  const dropOrder = dependencyOrder([...recreate.values(), ...early.values()]).reverse();
  for (const a of dropOrder.filter((x) => x.kind !== 'owner'))
    steps.push({
      kind: 'drop_object',
      object: a.id,
      objectKind: a.kind,
      statements: a.drop ?? [],
      reason: early.has(a.id) ? 'prune_dependent' : a.invalid ? 'invalid' : 'recreate',
      ...(itself.has(a.id) ? { itself: true } : {}),
    });
  steps.push(...ownersFirst(alters).filter((s) => !('object' in s) || !recreate.has(s.object)));
  steps.push(...givenBack(toReader, [...recreate.values()], desired));
  for (const d of dependencyOrder(childChecksFirst(creates, desired))) {
    const before = recreate.get(d.id);
    const definitionDiff = before ? lineDiff(withoutDigests(before.create.join('\n')), d.create.join('\n')) : [];
    steps.push({
      kind: 'create_object',
      object: d.id,
      objectKind: d.kind,
      statements: d.create,
      recreate: recreate.has(d.id),
      ...searchPath(d),
      ...(definitionDiff.length > 0 ? { definitionDiff } : {}),
      // CREATE makes the applier its owner: given back (a view reads its tables with its owner's rights).
      ...(before?.owner && !givenToReader(d, toReader) ? { owner: before.owner.name } : {}),
      ...(d.online ? { online: true } : {}),
    });
  }
  steps.push(...domainChecks.creates);
  for (const a of dependencyOrder(prunes).reverse())
    steps.push({
      kind: 'drop_object',
      object: a.id,
      objectKind: a.kind,
      statements: partitionColumnDrop(a, desired) ?? [],
      reason: 'prune',
      ...onTable(a),
    });
  return { steps, problems, unmanaged };
}

const onTable = (a: SqlObject): { parent?: string } =>
  a.parent !== undefined && ref.refId(a.parent, 'relation') !== undefined ? { parent: a.parent } : {};
/** Object `d` changed in place by `statements`. */
export const inPlace = (d: SqlObject, statements: readonly string[]): Step => ({
  kind: 'alter_object',
  object: d.id,
  objectKind: d.kind,
  statements,
  what: 'change',
  ...searchPath(d),
});
const searchPath = (d: SqlObject): { searchPath?: string } =>
  d.searchPath !== undefined ? { searchPath: d.searchPath } : {};
