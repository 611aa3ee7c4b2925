// The bench section: each workload's SQL is parsed so that placeholders are counted by the real
// grammar (a "$1" inside a string literal is not a placeholder).
import { parseStatements, type Node } from '../sql/pg-parse.js';
import { parseDuration } from '../util/duration.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { BenchParam, Manifest } from './schema.js';

export interface BenchWorkload {
  readonly name: string;
  readonly weight: number;
  readonly sql: string;
  readonly params: readonly BenchParam[];
  /** CALL is sent with values inlined as literals (Citus does not delegate a CALL with bind parameters). */
  readonly protocol: 'simple-literals' | 'prepared';
  readonly isCall: boolean;
}

export interface BenchSpec {
  readonly clients: number;
  readonly durationMs?: number;
  readonly transactions?: number;
  readonly warmupMs: number;
  readonly workloads: readonly BenchWorkload[];
}

/** Parses 500ms / 30s / 5m / 1h into milliseconds (the manifest's form; the schema checked it). */
export function durationMs(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`not a duration: ${text}`);
  return ms;
}

function collectParams(node: Node, out: Set<number>): void {
  if (Array.isArray(node)) { for (const n of node) collectParams(n, out); return; }
  if (!node || typeof node !== 'object') return;
  if (node.ParamRef && typeof node.ParamRef.number === 'number') out.add(node.ParamRef.number);
  for (const v of Object.values(node)) collectParams(v, out);
}

function checkParam(p: BenchParam, path: Path, problems: ProblemList): void {
  if ('int' in p && p.int[0] > p.int[1]) problems.error([...path, 'int'], 'invalid_range', `int range [${p.int[0]}, ${p.int[1]}] is empty: the low bound is above the high bound`);
  if ('nurand' in p && p.nurand[1] > p.nurand[2]) problems.error([...path, 'nurand'], 'invalid_range', `nurand [A, x, y] needs x <= y, got x=${p.nurand[1]}, y=${p.nurand[2]}`);
  if ('text' in p && p.text[0] > p.text[1]) problems.error([...path, 'text'], 'invalid_range', `text length [${p.text[0]}, ${p.text[1]}] is empty: the minimum is above the maximum`);
}

/** Validates the bench section and returns the workloads in declaration order. */
export function resolveBench(b: NonNullable<Manifest['bench']>, problems: ProblemList): BenchSpec {
  if (b.duration !== undefined && b.transactions !== undefined) {
    problems.error(['bench', 'transactions'], 'duration_and_transactions', 'give duration or transactions, not both');
  }
  const workloads: BenchWorkload[] = [];
  for (const [name, w] of Object.entries(b.workloads)) {
    const path: Path = ['bench', 'workloads', name];
    w.params.forEach((p, i) => checkParam(p, [...path, 'params', i], problems));
    let stmts: Node[];
    try {
      stmts = parseStatements(w.sql);
    } catch (e) {
      problems.error([...path, 'sql'], 'invalid_sql', `sql does not parse: ${(e as Error).message}`);
      continue;
    }
    if (stmts.length !== 1) {
      problems.error([...path, 'sql'], 'invalid_sql', `sql holds ${stmts.length} statements; a workload is exactly one statement`);
      continue;
    }
    const used = new Set<number>();
    collectParams(stmts[0].stmt, used);
    const highest = Math.max(0, ...used);
    const missing = Array.from({ length: highest }, (_, i) => i + 1).filter((n) => !used.has(n));
    if (missing.length > 0) {
      problems.error([...path, 'sql'], 'placeholder_gap', `sql uses $${highest} but not ${missing.map((n) => `$${n}`).join(', ')}`);
    } else if (highest !== w.params.length) {
      problems.error([...path, 'params'], 'placeholder_count', `sql has ${highest} placeholder${highest === 1 ? '' : 's'} but params has ${w.params.length} entr${w.params.length === 1 ? 'y' : 'ies'}`);
    }
    const isCall = Boolean(stmts[0].stmt.CallStmt);
    const protocol = w.protocol === 'prepared' ? 'prepared' : w.protocol === 'simple' ? 'simple-literals' : isCall ? 'simple-literals' : 'prepared';
    workloads.push({ name, weight: w.weight, sql: w.sql, params: w.params, protocol, isCall });
  }
  return {
    clients: b.clients ?? 8,
    ...(b.transactions !== undefined ? { transactions: b.transactions } : { durationMs: durationMs(b.duration ?? '30s') }),
    warmupMs: durationMs(b.warmup ?? '0s'),
    workloads,
  };
}
