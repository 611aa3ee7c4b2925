// Locality analysis of delegated routines: for every routine with a distribution argument, each
// SQL statement its body runs, classified by where Citus runs it once the call is on the worker
// (classify.ts). Pure over a model and routine definitions; the command reads them.
import { idOf, type ClusterModel, type Routine } from '../model/types.js';
import { ParseFailure, parseStatements, type Node } from '../sql/pg-parse.js';
import { identityArgs, parseRoutineSql, type ParsedRoutine } from '../sql/routine-parse.js';
import { bodyStartLine } from '../sql/plpgsql-check.js';
import { readBody, type EmbeddedSql, type RoutineBody } from './body.js';
import { classifyStatement, LOCALITIES, type Locality, type RoutineScope, type TableFacts } from './classify.js';

export interface StatementAnalysis {
  readonly line: number;
  readonly sql: string;
  readonly tables: readonly string[];
  readonly locality: Locality;
  readonly why: string;
}

export interface RoutineAnalysis {
  readonly routine: string;
  readonly distributedBy: string;
  readonly colocation: string | null;
  /** The file the body was read from (lines are that file's), or undefined: pg_get_functiondef's text. */
  readonly file?: string;
  readonly statements: readonly StatementAnalysis[];
  /** Why the body was not analysed (not PL/pgSQL or SQL, does not compile). */
  readonly skipped?: string;
  /** Against a cluster: delegated there (`cluster`), or only declared so in the manifest, not yet applied (`manifest`). */
  readonly delegation?: 'cluster' | 'manifest';
}

export interface AnalysisDocument {
  readonly format: 'citus-migrate.analysis';
  readonly formatVersion: 1;
  readonly routines: readonly RoutineAnalysis[];
}

/** A routine to analyse: its model entry, its CREATE statement, and where that came from. */
export interface RoutineSource {
  readonly routine: Routine;
  readonly definition: string;
  /** The file it was read from (as the manifest names it) and that file's text: lines are counted there. */
  readonly file?: string;
  readonly fileText?: string;
}

/** Table facts from a model: distribution, colocation group, columns. */
export function tableFacts(
  model: ClusterModel,
): (schema: string | undefined, name: string, searchPath: readonly string[]) => TableFacts | undefined {
  const byName = new Map<string, TableFacts>();
  for (const t of Object.values(model.tables)) {
    const d = t.distribution;
    byName.set(`${t.qname.schema}\u0000${t.qname.name}`, {
      id: t.id,
      kind:
        d.kind === 'hash'
          ? 'distributed'
          : d.kind === 'schema'
            ? 'single_shard'
            : d.kind === 'citus_local'
              ? 'local'
              : d.kind,
      ...(d.kind === 'hash' ? { column: d.column, group: d.group } : {}),
      ...(t.columns ? { columns: t.columns.map((c) => c.name) } : {}),
    });
  }
  return (schema, name, searchPath) => {
    for (const s of schema !== undefined ? [schema] : searchPath) {
      const hit = byName.get(`${s}\u0000${name}`);
      if (hit) return hit;
    }
    return undefined;
  };
}

/** The routine's statements: PL/pgSQL through its compiler, SQL functions statement by statement. */
function statementsOf(parsed: ParsedRoutine, definition: string): RoutineBody | string {
  if (parsed.body === undefined) return 'no body to read';
  if (parsed.language === 'plpgsql') return readBody(definition) ?? 'the PL/pgSQL body does not compile';
  if (parsed.language !== 'sql') return `LANGUAGE ${parsed.language} is not read`;
  const bytes = Buffer.from(parsed.body);
  const statements: EmbeddedSql[] = parseStatements(parsed.body).map((raw: Node) => {
    const start = raw.stmt_location ?? 0;
    const text = bytes.subarray(start, raw.stmt_len ? start + raw.stmt_len : undefined).toString();
    const lead = text.slice(0, text.length - text.trimStart().length);
    return {
      line: bytes.subarray(0, start).toString().split('\n').length + lead.split('\n').length - 1,
      sql: text.trim(),
    };
  });
  const names = new Set(parsed.args.map((a) => a.name).filter((n): n is string => n !== undefined));
  return { statements, variables: { names, assigned: new Map() } };
}

/** The distribution argument and the variables only ever assigned from it (a fixpoint). */
function keyVariables(body: RoutineBody, argName: string | undefined, keyParam: number): Set<string> {
  const keys = new Set<string>();
  if (argName !== undefined && !body.variables.assigned.has(argName)) keys.add(argName);
  const isKey = (expr: string): boolean => {
    try {
      let v: Node = parseStatements(`SELECT ${expr}`)[0]?.stmt?.SelectStmt?.targetList;
      if (v?.length !== 1) return false;
      v = v[0].ResTarget.val;
      while (v?.TypeCast) v = v.TypeCast.arg;
      if (v?.ParamRef) return v.ParamRef.number === keyParam;
      const f = v?.ColumnRef?.fields;
      return f?.length === 1 && keys.has(f[0].String?.sval);
    } catch (e) {
      if (e instanceof ParseFailure) return false;
      throw e;
    }
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, values] of body.variables.assigned) {
      if (keys.has(name) || name === argName || values.length === 0) continue;
      if (values.every((v) => v !== null && isKey(v))) {
        keys.add(name);
        changed = true;
      }
    }
  }
  return keys;
}

const oneLine = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

/**
 * The SQL statements a routine's CREATE statement `text` runs, each with its line in `text`, and
 * its variables and arguments by name; or why they cannot be read.
 */
export function routineStatements(
  text: string,
): { statements: readonly EmbeddedSql[]; variables: ReadonlySet<string> } | string {
  let parsed: ParsedRoutine;
  try {
    parsed = parseRoutineSql(text);
  } catch (e) {
    return `the definition does not parse: ${(e as Error).message}`;
  }
  const body = statementsOf(parsed, text);
  if (typeof body === 'string') return body;
  const offset = (bodyStartLine(text, parsed.body!) ?? 1) - 1;
  const names = new Set([...body.variables.names, ...parsed.args.flatMap((a) => (a.name ? [a.name] : []))]);
  return { statements: body.statements.map((s) => ({ ...s, line: s.line + offset })), variables: names };
}

/** Analyses one delegated routine. */
export function analyzeRoutine(src: RoutineSource, model: ClusterModel, defaultSchema: string): RoutineAnalysis {
  const r = src.routine;
  const argIndex = r.distribution!.argIndex!;
  const group = r.distribution?.colocateWith ? model.tables[r.distribution.colocateWith]?.distribution : undefined;
  const colocation = group?.kind === 'hash' ? group.group : null;
  const base = {
    routine: idOf(r.qname) + (r.argTypes ? `(${r.argTypes.join(', ')})` : ''),
    colocation,
    ...(src.file ? { file: src.file } : {}),
  };
  // The file's text when there is one (its one statement is the definition): the manifest's
  // resolve parsed that text already, so the parse is not done again (routine-parse.ts).
  const text = src.fileText ?? src.definition;
  let parsed: ParsedRoutine;
  try {
    parsed = parseRoutineSql(text);
  } catch (e) {
    return {
      ...base,
      distributedBy: `$${argIndex + 1}`,
      statements: [],
      skipped: `the definition does not parse: ${(e as Error).message}`,
    };
  }
  const argName = identityArgs(parsed.args)[argIndex]?.name;
  const distributedBy = argName ?? `$${argIndex + 1}`;
  const body = statementsOf(parsed, text);
  if (typeof body === 'string') return { ...base, distributedBy, statements: [], skipped: body };
  const offset = (bodyStartLine(text, parsed.body!) ?? 1) - 1;
  const facts = tableFacts(model);
  const searchPath = [...new Set([r.qname.schema, defaultSchema])];
  const scope: RoutineScope = {
    routineName: r.qname.name,
    variables: body.variables.names,
    keyVars: keyVariables(body, argName, argIndex + 1),
    keyParam: argIndex + 1,
    keyName: distributedBy,
    group: colocation ?? undefined,
    table: (schema, name) => facts(schema, name, searchPath),
  };
  const statements: StatementAnalysis[] = [];
  for (const s of body.statements) {
    const line = s.line + offset;
    if (s.dynamic) {
      statements.push({ line, sql: oneLine(s.sql), tables: [], locality: 'unknown', why: s.dynamic });
      continue;
    }
    let raws: Node[];
    try {
      raws = parseStatements(s.sql);
    } catch (e) {
      statements.push({
        line,
        sql: oneLine(s.sql),
        tables: [],
        locality: 'unknown',
        why: `cannot be read: ${(e as Error).message}`,
      });
      continue;
    }
    for (const raw of raws) {
      const c = classifyStatement(raw.stmt, scope);
      if (c.tables.length > 0) statements.push({ line, sql: oneLine(s.sql), ...c });
    }
  }
  statements.sort((a, b) => a.line - b.line);
  return { ...base, distributedBy, statements };
}

/** Counts per locality, in LOCALITIES order. */
export function localityCounts(a: RoutineAnalysis): Record<Locality, number> {
  const counts = Object.fromEntries(LOCALITIES.map((l) => [l, 0])) as Record<Locality, number>;
  for (const s of a.statements) counts[s.locality]++;
  return counts;
}

/** The routines of a model that are delegated (have a distribution argument), with their definitions. */
export function delegatedRoutines(
  model: ClusterModel,
  source: (r: Routine) => Omit<RoutineSource, 'routine' | 'definition'> & { definition?: string },
): RoutineSource[] {
  return Object.values(model.routines)
    .filter((r) => r.distribution?.argIndex !== undefined)
    .flatMap((routine) => {
      const { definition, ...rest } = source(routine);
      return definition ? [{ routine, definition, ...rest }] : [];
    })
    .sort((a, b) => a.routine.id.localeCompare(b.routine.id));
}
