// The pure diff: desired model vs actual model -> ordered steps, plus problems as data.
// It never prompts, reads a clock or touches the network.
import type { ClusterModel, ForeignKey, Routine, RoutineDistribution, Sequence, Table } from '../model/types.js';
import { PHASES, phaseOf, type Step } from './steps.js';

export interface DiffProblem {
  readonly code: string;
  readonly object: string;
  readonly message: string;
}

export interface DiffResult {
  readonly steps: readonly Step[];
  readonly problems: readonly DiffProblem[];
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

function sameFk(a: ForeignKey, b: ForeignKey): boolean {
  return a.refTable === b.refTable && sameList(a.columns, b.columns) && sameList(a.refColumns, b.refColumns)
    && (a.onDelete ?? 'no action') === (b.onDelete ?? 'no action') && (a.onUpdate ?? 'no action') === (b.onUpdate ?? 'no action');
}

function sameSequenceOptions(a: Sequence, b: Sequence): boolean {
  return a.cache === b.cache && a.cycle === b.cycle && a.type === b.type
    && (a.increment ?? 1) === (b.increment ?? 1)
    && (a.start === undefined || a.start === b.start) && (a.min === undefined || a.min === b.min) && (a.max === undefined || a.max === b.max);
}

/** True when two tables share a colocation group in the actual cluster (ids are never compared). */
function colocated(actual: ClusterModel, a: string, b: string): boolean {
  if (a === b) return true;
  const da = actual.tables[a]?.distribution;
  const db = actual.tables[b]?.distribution;
  return da?.kind === 'hash' && db?.kind === 'hash' && da.group === db.group;
}

function sameRoutineDistribution(actual: ClusterModel, want: RoutineDistribution, have: RoutineDistribution | undefined): boolean {
  if (!have) return false;
  if (want.argIndex !== have.argIndex) return false;
  if (want.argIndex === undefined) return true;
  return (want.forceDelegation ?? false) === (have.forceDelegation ?? false)
    && want.colocateWith !== undefined && have.colocateWith !== undefined && colocated(actual, want.colocateWith, have.colocateWith);
}

function tableSteps(t: Table, desired: ClusterModel, actual: ClusterModel, existing: Table | undefined): Step[] {
  const steps: Step[] = [];
  const have = existing?.distribution ?? { kind: 'local' as const };
  const want = t.distribution;
  const copiesData = existing !== undefined;
  if (want.kind === have.kind && (want.kind !== 'hash' || have.kind !== 'hash' || colocatedWithGroup(t, desired, actual))) return steps;
  if (have.kind !== 'local') return steps; // changing an existing distribution: live planning (alter/undistribute)
  if (want.kind === 'reference') steps.push({ kind: 'create_reference_table', table: t.qname, copiesData });
  else if (want.kind === 'single_shard') steps.push({ kind: 'create_single_shard_table', table: t.qname, copiesData });
  else if (want.kind === 'hash') {
    const group = desired.groups[want.group]!;
    steps.push(group.anchor === t.id
      ? { kind: 'distribute_table', table: t.qname, column: want.column, group: group.name, colocateWith: 'none', shardCount: group.shardCount, copiesData }
      : { kind: 'distribute_table', table: t.qname, column: want.column, group: group.name, colocateWith: desired.tables[group.anchor]!.qname, copiesData });
  }
  if (copiesData && steps.length > 0) steps.push({ kind: 'truncate_local_data', table: t.qname });
  return steps;
}

function colocatedWithGroup(t: Table, desired: ClusterModel, actual: ClusterModel): boolean {
  if (t.distribution.kind !== 'hash') return true;
  const group = desired.groups[t.distribution.group];
  return !group || colocated(actual, t.id, group.anchor);
}

function routineSignature(r: Routine): string | undefined {
  return r.argTypes ? r.id : undefined;
}

/** Computes the ordered steps that take `actual` to `desired`. */
export function diff(desired: ClusterModel, actual: ClusterModel): DiffResult {
  const steps: Step[] = [];
  const problems: DiffProblem[] = [];
  const created = new Set<string>();

  for (const schema of desired.schemas) if (!actual.schemas.includes(schema)) steps.push({ kind: 'create_schema', schema });

  for (const t of Object.values(desired.tables)) {
    const a = actual.tables[t.id];
    if (!a) {
      if (!t.columns) {
        problems.push({ code: 'missing_table', object: t.id, message: `${t.id} is declared without columns (created elsewhere) but does not exist` });
        continue;
      }
      steps.push({ kind: 'create_table', table: t.qname, columns: t.columns, ...(t.primaryKey ? { primaryKey: t.primaryKey } : {}), unique: t.unique });
      created.add(t.id);
    }
    for (const ix of t.indexes) {
      const exists = a?.indexes.some((x) => x.unique === ix.unique && x.using === ix.using && sameList(x.columns, ix.columns));
      if (!exists) steps.push({ kind: 'create_index', table: t.qname, index: ix });
    }
  }

  for (const s of Object.values(desired.sequences)) {
    const a = actual.sequences[s.id];
    if (!a) {
      if (s.ownedBy && created.has(s.ownedBy.table)) steps.push({ kind: 'alter_sequence', sequence: s });
      else if (s.ownedBy) problems.push({ code: 'missing_sequence', object: s.id, message: `${s.id} belongs to a serial column of ${s.ownedBy.table} but does not exist` });
      else steps.push({ kind: 'create_sequence', sequence: s });
    } else if (!sameSequenceOptions(s, a)) {
      steps.push({ kind: 'alter_sequence', sequence: s });
    }
  }

  for (const r of Object.values(desired.routines)) {
    if (actual.routines[r.id]) continue;
    if (r.definition === undefined || !r.kind) {
      problems.push({ code: 'missing_routine', object: r.id, message: `${r.id} is declared without a file (created elsewhere) but does not exist` });
      continue;
    }
    steps.push({
      kind: 'create_routine', routine: r.qname, signature: r.id, routineKind: r.kind, definition: r.definition,
      ...(r.unqualifiedDefinition ? { searchPath: r.qname.schema } : {}),
    });
  }

  for (const t of Object.values(desired.tables)) {
    if (!actual.tables[t.id] && !created.has(t.id)) continue;
    steps.push(...tableSteps(t, desired, actual, actual.tables[t.id]));
  }

  for (const t of Object.values(desired.tables)) {
    const have = actual.tables[t.id]?.foreignKeys ?? [];
    for (const fk of t.foreignKeys) {
      if (have.some((x) => sameFk(x, fk))) continue;
      steps.push({ kind: 'add_foreign_key', table: t.qname, fk, refTable: desired.tables[fk.refTable]!.qname });
    }
  }

  for (const r of Object.values(desired.routines)) {
    const want = r.distribution ?? {};
    if (sameRoutineDistribution(actual, want, actual.routines[r.id]?.distribution)) continue;
    const sig = routineSignature(r);
    steps.push({
      kind: 'distribute_routine', routine: r.qname, ...(sig ? { signature: sig } : {}),
      ...(want.argIndex !== undefined ? { argIndex: want.argIndex, colocateWith: desired.tables[want.colocateWith!]!.qname, forceDelegation: want.forceDelegation ?? false } : {}),
    });
  }

  const order = (s: Step): number => PHASES.indexOf(phaseOf(s));
  const sorted = steps.map((s, i) => ({ s, i })).sort((a, b) => order(a.s) - order(b.s) || a.i - b.i).map((x) => x.s);
  return { steps: sorted, problems };
}

/** The cluster an offline plan starts from: empty, except what the manifest says is created elsewhere. */
export function offlineBaseline(desired: ClusterModel): ClusterModel {
  const tables: Record<string, Table> = {};
  for (const t of Object.values(desired.tables)) {
    if (!t.columns) tables[t.id] = { ...t, foreignKeys: [], distribution: { kind: 'local' } };
  }
  const routines: Record<string, Routine> = {};
  for (const r of Object.values(desired.routines)) {
    if (r.definition === undefined) routines[r.id] = { id: r.id, qname: r.qname, ...(r.kind ? { kind: r.kind } : {}), ...(r.argTypes ? { argTypes: r.argTypes } : {}) };
  }
  const schemas = new Set(['public', ...Object.values(tables).map((t) => t.qname.schema), ...Object.values(routines).map((r) => r.qname.schema)]);
  return { schemas: [...schemas], tables, groups: {}, sequences: {}, routines };
}
