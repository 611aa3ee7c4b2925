// Table inheritance of an existing table: ALTER TABLE … INHERIT for a parent the manifest adds
// (when the table already has what PostgreSQL asks of it) and NO INHERIT for one it takes away;
// which of the table's inherited columns then become its own.
import type { ClusterModel, Column, ColumnStorage, Table } from '../../model/types.js';
import { relationRef } from '../../model/object-ref.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { sameExpression } from '../../sql/normalize.js';
import { quoteIdent } from '../../sql/quote.js';

/** The table's inherited columns that no parent it keeps gives it: its own once NO INHERIT has run. */
export function freedColumns(t: Table, a: Table, actual: ClusterModel): ReadonlySet<string> {
  const kept = (a.inherits ?? []).filter((p) => (t.inherits ?? []).includes(p));
  const given = new Set(kept.flatMap((p) => (actual.tables[p]?.columns ?? []).map((c) => c.name)));
  return new Set((a.columns ?? []).filter((c) => c.inherited && !given.has(c.name)).map((c) => c.name));
}

/**
 * A column the manifest and the table disagree on being inherited (called for a column inherited
 * on either side, and not freed by NO INHERIT): PostgreSQL can make neither the other.
 */
export function inheritedColumnProblem(
  t: Table,
  a: Table,
  c: Column,
  ac: Column | undefined,
  desired: ClusterModel,
): DiffProblem | undefined {
  const object = `${t.id}.${quoteIdent(c.name)}`;
  if (!c.inherited)
    return {
      code: 'inherited_column_own',
      object,
      message:
        "is declared among the table's own columns, and the table has it only from a parent: PostgreSQL cannot make an inherited column a table's own; leave it out of columns",
    };
  // Only a new parent's INHERIT step (refused then: inheritSteps) makes such a column inherited.
  const from = (t.inherits ?? []).find((p) => desired.tables[p]?.columns?.some((x) => x.name === c.name));
  if (ac && !ac.inherited && from !== undefined && (a.inherits ?? []).includes(from))
    return {
      code: 'inherited_column_own',
      object,
      message:
        "is the table's own column (merged with its parent's), and the manifest has it only from the parent: PostgreSQL cannot make a column inherited only; declare it under columns",
    };
  return undefined;
}

/** What PostgreSQL's ALTER TABLE … INHERIT would refuse, if anything ("child table is missing column …"). */
function inheritRefusal(a: Table, parent: Table, actual: ClusterModel): string | undefined {
  const have = new Map((a.columns ?? []).map((c) => [c.name, c] as const));
  const missing = (parent.columns ?? []).filter((pc: Column) => {
    const c = have.get(pc.name);
    return c === undefined || c.type.base !== pc.type.base || (pc.notNull && !c.notNull);
  });
  if (missing.length > 0)
    return `it needs the table to have ${parent.id}'s columns of the same types (and NOT NULL where they are), and ${missing.map((c) => c.name).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing or differ`;
  // Each CHECK of the parent (but NO INHERIT ones) must be on the table already, by name.
  const prefix = `${parent.id}.`;
  const checks = Object.values(actual.objects).filter(
    (o) =>
      o.kind === 'check constraint' &&
      o.parent === relationRef(parent.id) &&
      !o.create.some((s) => / NO INHERIT\b/i.test(s)) &&
      actual.objects[`check constraint ${a.id}.${o.name.slice(prefix.length)}`] === undefined,
  );
  if (checks.length > 0)
    return `it needs the table to have ${parent.id}'s CHECK constraints (${checks.map((o) => o.name.slice(prefix.length)).join(', ')}) already`;
  return undefined;
}

/** INHERIT and NO INHERIT steps for an existing table whose parents change. */
export function inheritSteps(
  t: Table,
  a: Table,
  desired: ClusterModel,
  actual: ClusterModel,
  problems: DiffProblem[],
): Step[] {
  const want = t.inherits ?? [];
  const have = a.inherits ?? [];
  const steps: Step[] = [];
  for (const p of have)
    if (!want.includes(p))
      steps.push({ kind: 'alter_table_inherit', table: t.qname, parent: actual.tables[p]!.qname, inherit: false });
  for (const p of want) {
    if (have.includes(p)) continue;
    // A parent this plan creates has no CHECK yet: those it gets after reach the table anyway.
    const parent = actual.tables[p] ?? desired.tables[p]!;
    // After INHERIT, the columns the table had stay its own too (merged): the manifest must say so.
    const merged = (t.columns ?? []).filter((c) => c.inherited && parent.columns?.some((x) => x.name === c.name));
    const why =
      merged.length > 0
        ? `its columns ${merged.map((c) => c.name).join(', ')} stay its own after it (merged with the parent's): declare them under columns`
        : inheritRefusal(a, parent, actual);
    if (why !== undefined) {
      problems.push({
        code: 'inherit_refused',
        object: t.id,
        message: `is to inherit from ${p}, and PostgreSQL would refuse ALTER TABLE … INHERIT: ${why}; declare them first, or create the table anew`,
      });
      continue;
    }
    steps.push({ kind: 'alter_table_inherit', table: t.qname, parent: desired.tables[p]!.qname, inherit: true });
  }
  return steps;
}

/**
 * A new child that declares every column of its parents (none only inherited) and gives one of
 * them a generation expression of its own: made on its own, then INHERIT, as PostgreSQL lets it.
 */
export function ownGeneratedMerged(t: Table, desired: ClusterModel): boolean {
  const cols = t.columns ?? [];
  if (cols.some((c) => c.inherited)) return false;
  const parentCols = new Set((t.inherits ?? []).flatMap((p) => (desired.tables[p]?.columns ?? []).map((c) => c.name)));
  return cols.some((c) => c.generated !== undefined && parentCols.has(c.name));
}

type Own = { readonly default?: string; readonly notNull: boolean };

/** What a parent's own ALTER, reaching its children, makes of the column in this plan, if one does. */
function recursed(
  p: string,
  name: string,
  models: { desired: ClusterModel; actual: ClusterModel },
): Partial<Record<keyof Own, Own>> {
  const dc = models.desired.tables[p]?.columns?.find((c) => c.name === name);
  const ac = models.actual.tables[p]?.columns?.find((c) => c.name === name);
  if (!dc || !ac) return {};
  if (dc.inherited && ac.inherited) {
    for (const g of models.desired.tables[p]!.inherits ?? []) {
      const r = recursed(g, name, models);
      if (r.default || r.notNull) return r;
    }
    return {};
  }
  return {
    ...(!sameExpression(dc.default, ac.default, dc.type) ? { default: dc } : {}),
    ...(dc.notNull !== ac.notNull ? { notNull: dc } : {}),
  };
}

/** Defaults and NOT NULLs an inherited column has of its own, set after its parents' changes. */
export function inheritedColumnSteps(
  t: Table,
  a: Table | undefined,
  models: { desired: ClusterModel; actual: ClusterModel },
): Step[] {
  const steps: Step[] = [];
  const pk = new Set(t.primaryKey?.columns ?? []);
  for (const c of t.columns ?? []) {
    if (!c.inherited) continue;
    const ac = a?.columns?.find((x) => x.name === c.name);
    // A new table, or a column its parent adds: it starts as its first parent's.
    const first = (t.inherits ?? [])
      .map((p) => models.desired.tables[p]?.columns?.find((x) => x.name === c.name))
      .find((x) => x !== undefined);
    let now: Own | undefined = ac ?? first;
    if (ac) {
      const r = (t.inherits ?? []).map((p) => recursed(p, c.name, models)).find((x) => x.default || x.notNull) ?? {};
      const d = (r.default ?? ac).default;
      now = { ...(d !== undefined ? { default: d } : {}), notNull: (r.notNull ?? ac).notNull };
    }
    if (!now) continue;
    const dflt = !sameExpression(c.default, now.default, c.type);
    const notNull = !pk.has(c.name) && c.notNull !== now.notNull;
    const physical = ownPhysical(t, c, ac, first, models);
    if (!dflt && !notNull && Object.keys(physical).length === 0) continue;
    steps.push({
      kind: 'alter_inherited_column',
      table: t.qname,
      column: c.name,
      ...(dflt ? { default: c.default !== undefined ? { value: c.default } : {} } : {}),
      ...(notNull ? { notNull: c.notNull } : {}),
      ...physical,
    });
  }
  return steps;
}

/**
 * An inherited column's own statistics target, storage and attribute options, against what it
 * has once the plan's earlier steps ran: a parent's SET STATISTICS and SET STORAGE reach it (a new
 * table gets its parent's storage, no statistics target and no options); options do not recurse.
 */
function ownPhysical(
  t: Table,
  c: Column,
  ac: Column | undefined,
  first: Column | undefined,
  models: { desired: ClusterModel; actual: ClusterModel },
): {
  statistics?: number | null;
  storage?: ColumnStorage;
  setOptions?: (readonly [string, string])[];
  resetOptions?: string[];
} {
  const parent = (t.inherits ?? []).find((p) => models.desired.tables[p]?.columns?.some((x) => x.name === c.name));
  const dp = parent !== undefined ? models.desired.tables[parent]?.columns?.find((x) => x.name === c.name) : undefined;
  const ap = parent !== undefined ? models.actual.tables[parent]?.columns?.find((x) => x.name === c.name) : undefined;
  const statsReach = dp !== undefined && ap !== undefined && dp.statistics !== ap.statistics;
  const storageReaches = dp !== undefined && ap !== undefined && dp.storage !== ap.storage;
  const stats = ac && !statsReach ? ac.statistics : statsReach ? dp.statistics : undefined;
  const storage = ac && !storageReaches ? ac.storage : (dp ?? first)?.storage;
  const want = c.options ?? {};
  const have = ac?.options ?? {};
  const setOptions = Object.entries(want).filter(([k, v]) => have[k] !== v);
  const resetOptions = Object.keys(have).filter((k) => want[k] === undefined);
  return {
    ...(c.statistics !== stats ? { statistics: c.statistics ?? null } : {}),
    ...(c.storage !== storage ? { storage: c.storage ?? ac?.typeStorage ?? 'extended' } : {}),
    ...(setOptions.length > 0 ? { setOptions } : {}),
    ...(resetOptions.length > 0 ? { resetOptions } : {}),
  };
}
