// Steps that would run, with the applier's rights, code owned by another role that is not a
// superuser: that role could change the code between the plan and the apply (or own it to that
// end) and borrow the applier's rights. Such a step carries `runs_foreign_code` and names the
// object, the routine and its owner. What runs (checked on PostgreSQL 15 and Citus 13.2):
// - copying a table's rows into shards (create_distributed_table, create_reference_table…),
//   alter_distributed_table, undistribute_table, alter_table_set_access_method and a column type
//   change re-check its CHECK constraints and domains, rebuild its indexes and compute its
//   generated columns (on the workers, for the shards); the copy fires INSERT triggers (paused
//   for it, checks/unsafe-triggers.ts, unless not), truncate_local_data_after_distributing_table TRUNCATE
//   triggers; ALTER/undistribute recreate triggers after copying, so they do not fire;
// - ADD COLUMN evaluates its default (once, or for every row when volatile) and generated
//   expression, and its domain's CHECKs; a type change its USING and its new domain's CHECKs;
// - a CHECK, exclusion constraint or index created evaluates over every row, and a materialized
//   view runs its query;
// - an enabled event trigger runs on every DDL statement: every step of the plan carries it.
import type { ClusterModel, Routine, SqlObject } from '../../model/types.js';
import { idOf } from '../../model/types.js';
import { quoteIdent, quoteQualified } from '../../sql/quote.js';
import { tryParseStatements } from '../../sql/pg-parse.js';
import { expressionCalls } from '../../objects/statement-parts.js';
import type { SecurityNote } from '../steps/step-common.js';
import { tableOf } from '../steps/step-spec.js';
import type { Step } from '../steps/steps.js';
import { OBJECT_SPEC } from '../../model/object-spec.js';
import { relationRef } from '../../model/object-ref.js';

/** Code a step runs: where it is, and a routine of another role it calls. */
interface Code {
  readonly what: string;
  readonly routine: Routine;
}

const INSERT = 1 << 2;
const TRUNCATE = 1 << 5;
const COPIES: ReadonlySet<Step['kind']> = new Set([
  'distribute_table',
  'create_reference_table',
  'create_single_shard_table',
]);
const REWRITES: ReadonlySet<Step['kind']> = new Set([
  'undistribute_table',
  'set_access_method',
  'alter_table_access_method',
  'alter_column_type',
]);

/** The actual routines of roles other than the applier that are not superusers, by `schema.name` and by name. */
function foreignRoutines(actual: ClusterModel): { byId: Map<string, Routine[]>; byName: Map<string, Routine[]> } {
  const byId = new Map<string, Routine[]>();
  const byName = new Map<string, Routine[]>();
  for (const r of Object.values(actual.routines)) {
    if (r.owner === undefined || r.owner.superuser) continue;
    byId.set(idOf(r.qname), [...(byId.get(idOf(r.qname)) ?? []), r]);
    byName.set(r.qname.name, [...(byName.get(r.qname.name) ?? []), r]);
  }
  return { byId, byName };
}
type Foreign = ReturnType<typeof foreignRoutines>;

/** The foreign routines among an object's references ("routine app.f": every overload). */
const fromDeps = (f: Foreign, what: string, deps: readonly string[]): Code[] =>
  deps.flatMap((d) =>
    (d.startsWith('routine ') ? (f.byId.get(d.slice(8)) ?? []) : []).map((routine) => ({ what, routine })),
  );

/** The foreign routines an expression calls (an unqualified name: any schema's, as search_path may find it). */
function fromExpression(f: Foreign, what: string, text: string | undefined): Code[] {
  if (text === undefined || f.byId.size === 0) return [];
  return expressionCalls(text).flatMap((call) =>
    (call.schema === undefined
      ? (f.byName.get(call.name) ?? [])
      : (f.byId.get(quoteQualified({ schema: call.schema, name: call.name })) ?? [])
    ).map((routine) => ({ what, routine })),
  );
}

/** The domain a column type names, if the cluster has it (`app.d`, `app.d[]`). */
const domainOf = (actual: ClusterModel, type: string): SqlObject | undefined =>
  actual.objects[`domain ${type.replace(/(\[\])+$/, '')}`];

/** What re-checking, re-indexing or copying table `t`'s rows runs: CHECKs, indexes, domains, generated columns. */
function rowCode(f: Foreign, actual: ClusterModel, t: string): Code[] {
  const parent = relationRef(t);
  const own = Object.values(actual.objects).filter(
    (o) => o.parent === parent && ['check constraint', 'exclusion constraint', 'index'].includes(o.kind),
  );
  const domains = Object.entries(actual.typeUsers ?? {}).flatMap(([type, by]) => {
    const d = by.includes(parent) ? actual.objects[`domain ${type.slice(5)}`] : undefined;
    return d ? [d] : [];
  });
  return [
    ...own.flatMap((o) => fromDeps(f, o.id, o.deps)),
    ...domains.flatMap((d) => fromDeps(f, `${d.id} (a column type of ${t})`, d.deps)),
    ...(actual.tables[t]?.columns ?? []).flatMap((c) =>
      fromExpression(f, `the generated column ${t}.${quoteIdent(c.name)}`, c.generated),
    ),
  ];
}

/** Whether a trigger fires in an ordinary session (enabled, or ENABLE ALWAYS), and on which events. */
function triggerEvents(o: SqlObject): number {
  const alter = o.create[1];
  if (alter !== undefined && !/ ENABLE ALWAYS TRIGGER /.test(alter)) return 0;
  return Number(tryParseStatements(o.create[0] ?? '')?.[0]?.stmt?.CreateTrigStmt?.events ?? 0);
}

/**
 * The enabled triggers of table `t` that fire on `events`; none when the step pauses them (it
 * pauses every enabled trigger of the table and its partitions: checks/paused-triggers.ts).
 */
function triggerCode(f: Foreign, actual: ClusterModel, s: Step, t: string, events: number): Code[] {
  if (s.pausedTriggers) return [];
  return Object.values(actual.objects).flatMap((o) => {
    if (o.kind !== 'trigger' || o.parent !== relationRef(t)) return [];
    const name = o.name.slice(t.length + 1);
    if ((triggerEvents(o) & events) === 0) return [];
    return fromDeps(f, `trigger ${name} on ${t}`, o.deps);
  });
}

/** The tables of the step's group (alter_distributed_table with cascade) or the step's own. */
export function rewritten(actual: ClusterModel, s: Step, t: string): string[] {
  const d = actual.tables[t]?.distribution;
  if (s.kind !== 'alter_distributed_table' || !s.cascade || d?.kind !== 'hash') return [t];
  return Object.values(actual.tables)
    .filter((x) => x.distribution.kind === 'hash' && x.distribution.group === d.group)
    .map((x) => x.id);
}

/** The foreign code one step runs. */
function codeOf(f: Foreign, s: Step, desired: ClusterModel, actual: ClusterModel): Code[] {
  const t = tableOf(s);
  switch (s.kind) {
    case 'distribute_table':
    case 'create_reference_table':
    case 'create_single_shard_table':
    case 'distribute_table_concurrently':
      if (t === undefined || (COPIES.has(s.kind) && !(s as { copiesData: boolean }).copiesData)) return [];
      return [...rowCode(f, actual, t), ...triggerCode(f, actual, s, t, INSERT)];
    case 'distribute_schema':
      if (!s.copiesData) return [];
      return Object.values(actual.tables)
        .filter((x) => x.qname.schema === s.schema)
        .flatMap((x) => [...rowCode(f, actual, x.id), ...triggerCode(f, actual, s, x.id, INSERT)]);
    case 'alter_distributed_table':
      return t === undefined ? [] : rewritten(actual, s, t).flatMap((x) => rowCode(f, actual, x));
    case 'truncate_local_data':
      return t === undefined ? [] : triggerCode(f, actual, s, t, TRUNCATE);
    case 'add_column': {
      const col = `${idOf(s.table)}.${quoteIdent(s.column.name)}`;
      const domain = domainOf(actual, s.column.type.sql);
      return [
        ...fromExpression(f, `the default of ${col}`, s.column.default),
        ...fromExpression(f, `the generated column ${col}`, s.column.generated),
        ...(domain ? fromDeps(f, `${domain.id} (the type of ${col})`, domain.deps) : []),
      ];
    }
    case 'validate_constraint': {
      const o = actual.objects[`check constraint ${idOf(s.table)}.${quoteIdent(s.name)}`];
      return o ? fromDeps(f, o.id, o.deps) : [];
    }
    case 'create_object': {
      const d = desired.objects[s.object];
      return d && OBJECT_SPEC[s.objectKind].evaluates ? fromDeps(f, s.object, d.deps) : [];
    }
    default:
      if (!REWRITES.has(s.kind) || t === undefined) return [];
  }
  const rows = rowCode(f, actual, t);
  if (s.kind !== 'alter_column_type') return rows;
  const col = `${t}.${quoteIdent(s.column)}`;
  const domain = domainOf(actual, s.type);
  return [
    ...rows,
    ...fromExpression(f, `the USING of ${col}`, s.using),
    ...(domain ? fromDeps(f, `${domain.id} (the new type of ${col})`, domain.deps) : []),
  ];
}

const foreign = (text: string): SecurityNote => ({ hazard: 'runs_foreign_code', text });
const said = (c: Code): string => `runs ${c.routine.owner!.name}'s code: ${c.what} calls ${c.routine.id}`;

/** The steps, each with the code of other roles it would run as `runs_foreign_code` notes. */
export function markForeignCode(steps: readonly Step[], desired: ClusterModel, actual: ClusterModel): Step[] {
  const f = foreignRoutines(actual);
  // An event trigger fires on every DDL statement, and every step runs one (Citus's functions too).
  const events = (actual.eventTriggers ?? [])
    .filter((e) => !e.owner.superuser)
    .map((e) =>
      foreign(
        `runs ${e.owner.name}'s code: event trigger ${quoteIdent(e.name)} calls ${e.routine} on every DDL statement`,
      ),
    );
  if (f.byId.size === 0 && events.length === 0) return [...steps];
  return steps.map((s) => {
    const notes = [...new Set(codeOf(f, s, desired, actual).map(said))].map(foreign).concat(events);
    return notes.length === 0 ? s : { ...s, security: [...(s.security ?? []), ...notes] };
  });
}
