// Dependents that break: a routine body or a view that names a table or column the plan drops or
// renames would fail once the plan commits (every call with 42703 or 42P01; a view's CREATE at
// apply). PostgreSQL does not track what a PL/pgSQL body names, so the plan reads each body —
// the manifest's routines as they will be, and the cluster's routines the manifest leaves alone
// — statement by statement, and each statement that still names what goes is a problem with the
// file and line it is on. Pure.
import { idOf, type ClusterModel, type Routine, type Table } from '../../model/types.js';
import { routineStatements } from '../../locality/analyze.js';
import { ParseFailure, parseStatements, type Node } from '../../sql/pg-parse.js';
import { quoteIdent, quoteQualified, type QualifiedName } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import { statementNames, type NamedRelation } from './statement-names.js';
import type { Step } from '../steps/steps.js';
import { routineRef } from '../../model/object-ref.js';

/** A routine's file as the manifest names it, and its text (lines are counted there). */
export interface RoutineSourceFile {
  readonly file: string;
  readonly text: string;
}

interface Gone {
  /** Table id (as the cluster has it) → what the plan does to it. */
  readonly tables: Map<string, string>;
  /** Table id (as the cluster has it) → column → what the plan does to it. */
  readonly columns: Map<string, Map<string, string>>;
}

function goneOf(steps: readonly Step[]): Gone {
  const tables = new Map<string, string>();
  const columns = new Map<string, Map<string, string>>();
  const formerId = new Map<string, string>(); // renamed table: new id → the cluster's id
  for (const s of steps)
    if (s.kind === 'rename_table') {
      formerId.set(idOf({ schema: s.table.schema, name: s.to }), idOf(s.table));
      tables.set(idOf(s.table), `renames to ${quoteIdent(s.to)}`);
    }
  const col = (t: QualifiedName, c: string, what: string): void => {
    const id = formerId.get(idOf(t)) ?? idOf(t);
    columns.set(id, (columns.get(id) ?? new Map<string, string>()).set(c, what));
  };
  for (const s of steps) {
    if (s.kind === 'drop_table') tables.set(idOf(s.table), 'drops');
    else if (s.kind === 'drop_column') col(s.table, s.column, 'drops');
    else if (s.kind === 'rename_column') col(s.table, s.column, `renames to ${quoteIdent(s.to)}`);
  }
  return { tables, columns };
}

/** What one statement names that goes, as messages. */
function statementBreaks(
  stmt: Node,
  gone: Gone,
  find: (r: NamedRelation) => Table | undefined,
  variables: ReadonlySet<string>,
): string[] {
  const names = statementNames(stmt);
  const rels = names.relations.map((r) => ({ r, t: find(r) }));
  const out: string[] = [];
  for (const { t } of rels) {
    const what = t && gone.tables.get(t.id);
    if (what) out.push(`names table ${t.id}, which this plan ${what}`);
  }
  const has = (t: Table | undefined, c: string): boolean => t?.columns?.some((x) => x.name === c) ?? false;
  for (const c of names.columns) {
    let t: Table | undefined;
    if (c.target) t = find(c.target);
    else if (c.qualifier !== undefined) t = rels.find(({ r }) => (r.alias ?? r.name) === c.qualifier)?.t;
    else {
      if (variables.has(c.name)) continue;
      const holders = rels.filter(({ t: x }) => has(x, c.name));
      t = holders.length === 1 ? holders[0]!.t : rels.length === 1 ? rels[0]!.t : undefined;
    }
    const what = t && gone.columns.get(t.id)?.get(c.name);
    if (what) out.push(`names column ${t!.id}.${quoteIdent(c.name)}, which this plan ${what}`);
  }
  return [...new Set(out)];
}

/** Problems for the routines and views that would break on what `steps` drop or rename. */
export function brokenCallers(
  steps: readonly Step[],
  desired: ClusterModel,
  actual: ClusterModel,
  opts: { readonly defaultSchema: string; readonly sources?: ReadonlyMap<string, RoutineSourceFile> },
): DiffProblem[] {
  const gone = goneOf(steps);
  if (gone.tables.size === 0 && gone.columns.size === 0) return [];
  const byName = new Map(Object.values(actual.tables).map((t) => [`${t.qname.schema}\u0000${t.qname.name}`, t]));
  const finder =
    (path: readonly string[]) =>
    (r: NamedRelation): Table | undefined => {
      for (const s of r.schema !== undefined ? [r.schema] : path) {
        const t = byName.get(`${s}\u0000${r.name}`);
        if (t) return t;
      }
      return undefined;
    };
  const dropped = new Set(steps.flatMap((s) => (s.kind === 'drop_routine' ? [s.signature] : [])));
  const problems: DiffProblem[] = [];
  const check = (
    object: string,
    statements: readonly { line: number; sql: string }[],
    path: readonly string[],
    variables: ReadonlySet<string>,
    where: (line: number) => string,
    consequence: string,
  ): void => {
    for (const s of statements) {
      let raws: Node[];
      try {
        raws = parseStatements(s.sql);
      } catch (e) {
        if (e instanceof ParseFailure) continue;
        throw e;
      }
      for (const raw of raws)
        for (const why of statementBreaks(raw.stmt, gone, finder(path), variables))
          problems.push({ code: 'breaks_dependent', object, where: where(s.line), message: `${why}: ${consequence}` });
    }
  };
  const routines: [Routine, string | undefined][] = [
    ...Object.values(desired.routines).map((r): [Routine, string | undefined] => [
      r,
      r.definition ?? actual.routines[r.id]?.definition,
    ]),
    ...Object.values(actual.routines)
      .filter((r) => !desired.routines[r.id] && !dropped.has(r.id))
      .map((r): [Routine, string | undefined] => [r, r.definition]),
  ];
  for (const [r, definition] of routines) {
    if (definition === undefined) continue;
    const source = opts.sources?.get(r.id);
    const body = routineStatements(source?.text ?? definition);
    if (typeof body === 'string') continue;
    const declared = desired.routines[r.id] !== undefined;
    check(
      routineRef(r.id),
      body.statements,
      [r.qname.schema, opts.defaultSchema],
      body.variables,
      (line) =>
        source
          ? `${source.file}:${line}`
          : `line ${line} of ${declared ? 'its definition' : "the cluster's definition"}`,
      declared
        ? 'once the plan commits, every call fails; change the routine in the same manifest, or keep the name'
        : 'once the plan commits, every call of this routine (not in the manifest) fails; declare it changed, or keep the name',
    );
  }
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'view' && o.kind !== 'materialized view') continue;
    const statements = o.create.map((sql) => ({ line: 1, sql }));
    check(
      o.id,
      statements,
      [o.searchPath ?? opts.defaultSchema],
      new Set(),
      () => o.source ?? quoteQualified({ schema: opts.defaultSchema, name: o.name }),
      'the plan would fail creating it; change it in the same manifest, or keep the name',
    );
  }
  return problems;
}
