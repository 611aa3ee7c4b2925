// The bench section: each workload's SQL is parsed so that placeholders are counted by the real
// grammar (a "$1" inside a string literal is not a placeholder).
import { parseStatements, type Node } from '../sql/pg-parse.js';
import { parseDuration } from '../util/duration.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { parseQualifiedKey, type QualifiedName } from '../sql/quote.js';
import type { BenchParam, FromData, Manifest } from './schema.js';

/** A parameter bound read from the database once before the run: max/min of a column. */
export interface DataRef {
  readonly agg: 'max' | 'min';
  readonly table: QualifiedName;
  readonly column: string;
  /** As written in the manifest, for messages: max(warehouse.w_id). */
  readonly text: string;
  /** Identity: equal references are read once. */
  readonly key: string;
}

type Plain<P> = Exclude<P, { int: unknown } | { const: unknown }>;
/** A parameter as the manifest gives it, with bounds that may come from the data. */
export type SpecParam =
  | Plain<BenchParam>
  | { readonly int: readonly [number | DataRef, number | DataRef] }
  | { readonly const: string | number | boolean | DataRef };
/** A parameter with every bound a number: what the generators, the runner and pgbench take. */
export type ResolvedParam =
  Plain<BenchParam> | { readonly int: readonly [number, number] } | { readonly const: string | number | boolean };

export interface BenchWorkload<P = ResolvedParam> {
  readonly name: string;
  readonly weight: number;
  readonly sql: string;
  readonly params: readonly P[];
  /** CALL is sent with values inlined as literals (Citus does not delegate a CALL with bind parameters). */
  readonly protocol: 'simple-literals' | 'prepared';
  /** The manifest asked for this protocol (not `auto`): bench does not change it behind a pooler. */
  readonly protocolForced: boolean;
  readonly isCall: boolean;
}

export interface BenchSpec<P = ResolvedParam> {
  readonly clients: number;
  readonly durationMs?: number;
  readonly transactions?: number;
  readonly warmupMs: number;
  readonly workloads: readonly BenchWorkload<P>[];
}

/** What a data reference is checked against: the manifest's tables. */
export interface KnownTables {
  readonly defaultSchema: string;
  readonly tables: Manifest['tables'];
}

/** Splits `table.column` or `schema.table.column` (parts may be "quoted") at its last unquoted dot. */
export function parseColumnRef(
  text: string,
  defaultSchema: string,
): { table: QualifiedName; column: string } | { error: string } {
  let quoted = false;
  let dot = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === '.' && !quoted) dot = i;
  }
  if (dot === -1) return { error: 'expected table.column or schema.table.column' };
  const table = parseQualifiedKey(text.slice(0, dot), defaultSchema);
  if ('error' in table) return { error: `its table ${table.error}` };
  const col = text.slice(dot + 1);
  const quotedCol = col.length >= 2 && col.startsWith('"') && col.endsWith('"');
  const column = quotedCol ? col.slice(1, -1).split('""').join('"') : col;
  if (column === '' || (!quotedCol && column.includes('"'))) return { error: 'has no column name after the last dot' };
  return { table, column };
}

function dataRef(v: FromData, path: Path, known: KnownTables, problems: ProblemList): DataRef | undefined {
  const agg = 'max' in v ? 'max' : 'min';
  const written = 'max' in v ? v.max : v.min;
  const ref = parseColumnRef(written, known.defaultSchema);
  if ('error' in ref) {
    problems.error([...path, agg], 'invalid_reference', `${JSON.stringify(written)} ${ref.error}`);
    return undefined;
  }
  const entry = Object.entries(known.tables).find(([key]) => {
    const q = parseQualifiedKey(key, known.defaultSchema);
    return !('error' in q) && q.schema === ref.table.schema && q.name === ref.table.name;
  });
  if (!entry) {
    problems.warn(
      [...path, agg],
      'unmanaged_table',
      `${agg}(${written}): table ${ref.table.schema}.${ref.table.name} is not in the manifest; it is read from the database as it is`,
    );
  } else if (entry[1].columns && !(ref.column in entry[1].columns)) {
    problems.error(
      [...path, agg],
      'unknown_column',
      `${agg}(${written}): table ${entry[0]} has no column ${JSON.stringify(ref.column)}`,
    );
    return undefined;
  }
  return {
    agg,
    ...ref,
    text: `${agg}(${written})`,
    key: JSON.stringify([agg, ref.table.schema, ref.table.name, ref.column]),
  };
}

const isData = (v: unknown): v is FromData => typeof v === 'object' && v !== null;

/** The manifest's parameter with its data references resolved (undefined when one is invalid). */
function specParam(p: BenchParam, path: Path, known: KnownTables, problems: ProblemList): SpecParam | undefined {
  if ('int' in p) {
    const [lo, hi] = p.int.map((b, j) => (isData(b) ? dataRef(b, [...path, 'int', j], known, problems) : b));
    return lo === undefined || hi === undefined ? undefined : { int: [lo, hi] };
  }
  if ('const' in p && isData(p.const)) {
    const ref = dataRef(p.const, [...path, 'const'], known, problems);
    return ref ? { const: ref } : undefined;
  }
  return p as SpecParam;
}

/** Parses 500ms / 30s / 5m / 1h into milliseconds (the manifest's form; the schema checked it). */
export function durationMs(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`not a duration: ${text}`);
  return ms;
}

function collectParams(node: Node, out: Set<number>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectParams(n, out);
    return;
  }
  if (!node || typeof node !== 'object') return;
  if (node.ParamRef && typeof node.ParamRef.number === 'number') out.add(node.ParamRef.number);
  for (const v of Object.values(node)) collectParams(v, out);
}

function checkParam(p: BenchParam, path: Path, problems: ProblemList): void {
  if ('int' in p && typeof p.int[0] === 'number' && typeof p.int[1] === 'number' && p.int[0] > p.int[1])
    problems.error(
      [...path, 'int'],
      'invalid_range',
      `int range [${p.int[0]}, ${p.int[1]}] is empty: the low bound is above the high bound`,
    );
  if ('nurand' in p && p.nurand[1] > p.nurand[2])
    problems.error(
      [...path, 'nurand'],
      'invalid_range',
      `nurand [A, x, y] needs x <= y, got x=${p.nurand[1]}, y=${p.nurand[2]}`,
    );
  if ('text' in p && p.text[0] > p.text[1])
    problems.error(
      [...path, 'text'],
      'invalid_range',
      `text length [${p.text[0]}, ${p.text[1]}] is empty: the minimum is above the maximum`,
    );
}

// What a workload may be: a call of a routine, a query, or rows written (bench repeats it
// thousands of times, and `apply --bench` runs it against the cluster just changed).
const WORKLOAD_KINDS = new Set(['CallStmt', 'SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/** Why a statement is not a workload (DDL, TRUNCATE, SET, DO, SELECT … INTO), or undefined. */
function notAWorkload(stmt: Node): string | undefined {
  const [tag] = Object.keys(stmt);
  if (!WORKLOAD_KINDS.has(tag!))
    return `a workload is a CALL, SELECT, INSERT, UPDATE, DELETE or MERGE; not ${tag!.replace(/Stmt$/, '')} (bench never runs DDL, TRUNCATE, SET or DO)`;
  if (stmt.SelectStmt?.intoClause) return 'a workload is not SELECT … INTO (it creates a table)';
  return undefined;
}

/** Validates the bench section and returns the workloads in declaration order. */
export function resolveBench(
  b: NonNullable<Manifest['bench']>,
  problems: ProblemList,
  known: KnownTables,
): BenchSpec<SpecParam> {
  if (b.duration !== undefined && b.transactions !== undefined) {
    problems.error(['bench', 'transactions'], 'duration_and_transactions', 'give duration or transactions, not both');
  }
  const workloads: BenchWorkload<SpecParam>[] = [];
  for (const [name, w] of Object.entries(b.workloads)) {
    const path: Path = ['bench', 'workloads', name];
    w.params.forEach((p, i) => checkParam(p, [...path, 'params', i], problems));
    const params = w.params.map((p, i) => specParam(p, [...path, 'params', i], known, problems));
    let stmts: Node[];
    try {
      stmts = parseStatements(w.sql);
    } catch (e) {
      problems.error([...path, 'sql'], 'invalid_sql', `sql does not parse: ${(e as Error).message}`);
      continue;
    }
    if (stmts.length !== 1) {
      problems.error(
        [...path, 'sql'],
        'invalid_sql',
        `sql holds ${stmts.length} statements; a workload is exactly one statement`,
      );
      continue;
    }
    const refused = notAWorkload(stmts[0].stmt);
    if (refused) {
      problems.error([...path, 'sql'], 'invalid_bench_statement', refused);
      continue;
    }
    const used = new Set<number>();
    collectParams(stmts[0].stmt, used);
    const highest = Math.max(0, ...used);
    const missing = Array.from({ length: highest }, (_, i) => i + 1).filter((n) => !used.has(n));
    if (missing.length > 0) {
      problems.error(
        [...path, 'sql'],
        'placeholder_gap',
        `sql uses $${highest} but not ${missing.map((n) => `$${n}`).join(', ')}`,
      );
    } else if (highest !== w.params.length) {
      problems.error(
        [...path, 'params'],
        'placeholder_count',
        `sql has ${highest} placeholder${highest === 1 ? '' : 's'} but params has ${w.params.length} entr${w.params.length === 1 ? 'y' : 'ies'}`,
      );
    }
    const isCall = Boolean(stmts[0].stmt.CallStmt);
    const protocol =
      w.protocol === 'prepared'
        ? 'prepared'
        : w.protocol === 'simple'
          ? 'simple-literals'
          : isCall
            ? 'simple-literals'
            : 'prepared';
    workloads.push({
      name,
      weight: w.weight,
      sql: w.sql,
      params: params.filter((p): p is SpecParam => p !== undefined),
      protocol,
      protocolForced: w.protocol !== 'auto',
      isCall,
    });
  }
  return {
    clients: b.clients ?? 8,
    ...(b.transactions !== undefined
      ? { transactions: b.transactions }
      : { durationMs: durationMs(b.duration ?? '30s') }),
    warmupMs: durationMs(b.warmup ?? '0s'),
    workloads,
  };
}
