// Which of the transaction's statements go in one message (batch.ts): those of steps that never run
// long, up to a size; a step that may run long goes alone, so that progress names it while it runs
// (the server's replies to a batch arrive in bursts, as its output buffer fills).
import { OBJECT_SPEC } from '../model/object-spec.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import type { StepKind } from '../plan/steps/steps.js';
import { tableOf } from '../plan/steps/step-spec.js';
import { tryParseStatements } from '../sql/pg-parse.js';
import { pgWasm } from '../sql/pg-wasm.js';
import { quoteQualified } from '../sql/quote.js';
import { singleStatement } from './batch.js';

/** Step kinds that write only the catalog (or only objects of their own): they never run long. */
const CATALOG_ONLY: ReadonlySet<StepKind> = new Set<StepKind>([
  'create_schema',
  'create_table',
  'create_sequence',
  'alter_sequence',
  'set_sequence_owner',
  'create_routine',
  'replace_routine',
  'drop_routine',
  'revoke_default_privileges',
  'rename_key',
  'rename_constraint',
  'drop_constraint',
  'drop_index',
  'alter_column_default',
  'alter_column_statistics',
  'alter_column_storage',
]);

/** `app.t` of `app.t.name` (the last identifier, quoted or not, taken off). */
function parentOf(name: string): string {
  if (!name.endsWith('"')) return name.slice(0, Math.max(0, name.lastIndexOf('.')));
  let i = name.length - 2;
  for (;;) {
    const q = name.lastIndexOf('"', i);
    if (q <= 0 || name[q - 1] !== '"') return name.slice(0, Math.max(0, q - 1));
    i = q - 2;
  }
}

/**
 * The table a CREATE INDEX of the sql: files builds on (`app.t`), read with PostgreSQL's parser;
 * an unqualified name is in the step's schema (its SET LOCAL search_path). Undefined when unsure
 * (no such statement, no schema known, or the parser not loaded).
 */
function indexTable(statements: readonly string[], searchPath: string | undefined): string | undefined {
  if (!pgWasm()) return undefined;
  for (const text of statements) {
    const relation = tryParseStatements(text)?.[0]?.stmt?.IndexStmt?.relation;
    if (!relation) continue;
    const schema: string | undefined = relation.schemaname ?? searchPath;
    return schema === undefined ? undefined : quoteQualified({ schema, name: relation.relname });
  }
  return undefined;
}

/**
 * Whether a step may run long: a scan, a copy, a rewrite or a build over a table that held rows
 * before this transaction (one it created is empty), or a materialized view's query. Such a step
 * is sent alone, so that progress names it while it runs; the rest go in batches.
 */
function mayRunLong(step: PlanStep, created: ReadonlySet<string>): boolean {
  if (CATALOG_ONLY.has(step.kind)) return false;
  const s = step.step;
  if (s.kind === 'create_object' || s.kind === 'alter_object' || s.kind === 'drop_object') {
    if (s.kind === 'drop_object' || OBJECT_SPEC[s.objectKind].catalogOnly) return false;
    if (s.kind === 'create_object' && s.objectKind === 'index') {
      const table = indexTable(s.statements, s.searchPath);
      return table === undefined || !created.has(table);
    }
    return !(OBJECT_SPEC[s.objectKind].scansTable && created.has(parentOf(s.object.slice(s.objectKind.length + 1))));
  }
  const table = tableOf(s);
  return table === undefined || !created.has(table);
}

/** At most this many statements, and about this many characters, in one message. */
const BATCH_STATEMENTS = 500;
const BATCH_CHARS = 256 * 1024;

export interface Unit {
  readonly sql: string;
  readonly step?: PlanStep;
  /** The step's first statement: the step starts with it. */
  readonly first: boolean;
  /** The step's last statement: the step is done with it. */
  readonly last: boolean;
}

/**
 * Citus runs some DDL by sending the statement's query string to the workers, and in a message of
 * several statements that string is the whole message: a CREATE INDEX on a distributed table
 * fails ("cannot insert multiple commands into a prepared statement", docs/citus-facts.md). So
 * with Citus in the database (or created by this plan), or not known, every statement goes alone.
 * (Also what apply's verification reads: false, the catalog query without Citus's part at once.)
 */
export function withCitus(plan: PlanDocument): boolean {
  const server = plan.source.kind === 'live' ? plan.source.server : undefined;
  return server?.citus !== null || plan.transaction.steps.some((s) => s.object === 'extension citus');
}

/** The transaction's statements in messages: batches of those that never run long, the others alone. */
export function batches(plan: PlanDocument, preamble: readonly string[], oneByOne = false): Unit[][] {
  if (oneByOne || withCitus(plan)) {
    const units: Unit[] = preamble.map((sql) => ({ sql, first: false, last: false }));
    for (const step of plan.transaction.steps)
      step.sql.forEach((sql, i) => units.push({ sql, step, first: i === 0, last: i === step.sql.length - 1 }));
    return units.map((u) => [u]);
  }
  const created = new Set<string>();
  for (const s of plan.transaction.steps) if (s.kind === 'create_table') created.add(tableOf(s.step)!);
  const out: Unit[][] = [];
  let current: Unit[] = [];
  let chars = 0;
  const flush = (): void => {
    if (current.length > 0) out.push(current);
    current = [];
    chars = 0;
  };
  const add = (u: Unit, alone: boolean): void => {
    if (alone || !singleStatement(u.sql)) {
      flush();
      out.push([u]);
      return;
    }
    if (current.length >= BATCH_STATEMENTS || chars + u.sql.length > BATCH_CHARS) flush();
    current.push(u);
    chars += u.sql.length;
  };
  for (const sql of preamble) add({ sql, first: false, last: false }, false);
  for (const step of plan.transaction.steps) {
    const alone = mayRunLong(step, created);
    step.sql.forEach((sql, i) => add({ sql, step, first: i === 0, last: i === step.sql.length - 1 }, alone));
  }
  flush();
  return out;
}
