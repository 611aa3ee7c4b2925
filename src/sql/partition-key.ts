// A PARTITION BY key read with PostgreSQL's grammar: its method and its elements, each a column or
// an expression with a COLLATE and an operator class of its own, and a comparison key under which
// the manifest's spelling (`range (lower(name))`) and pg_get_partkeydef's (`RANGE (lower(name))`,
// `RANGE (date_trunc('day'::text, …))`) are the same key.
import { stableJson } from '../util/stable-json.js';
import { copyTree } from '../util/tree.js';
import { normalizeNode } from './normalize.js';
import { mutableInKey } from './key-volatility.js';
import { ParseFailure, parseStatements, typeFromNode, type Node } from './pg-parse.js';
import { parsePartitionKey } from './partition-bound.js';

export type PartitionMethod = 'RANGE' | 'LIST' | 'HASH';

/** One element of a partition key. */
export interface PartitionKeyElement {
  /** The column it is, when it is a column. */
  readonly column?: string;
  /** True for an expression (`lower(name)`, `(a + b)`). */
  readonly expression?: true;
  /** The columns it reads (the column itself, or those an expression names). */
  readonly reads: readonly string[];
  /** The type a cast at the top of an expression gives it (`(at::date)`: date): its bounds' type. */
  readonly castTo?: string;
  /** True when it names a COLLATE or an operator class of its own. */
  readonly collationOrOpclass?: true;
  /** What in an expression is not IMMUTABLE (key-volatility.ts), given the columns' types. */
  readonly mutable?: string;
}

export interface PartitionKeySpec {
  readonly method: PartitionMethod;
  readonly elements: readonly PartitionKeyElement[];
}

const METHODS: Readonly<Record<string, PartitionMethod>> = {
  PARTITION_STRATEGY_RANGE: 'RANGE',
  PARTITION_STRATEGY_LIST: 'LIST',
  PARTITION_STRATEGY_HASH: 'HASH',
};

const PREFIX = 'CREATE TABLE t () PARTITION BY ';

/** The PartitionSpec node of a PARTITION BY text; throws ParseFailure (positions in the text). */
function specNode(text: string): Node {
  let stmts: Node[];
  try {
    stmts = parseStatements(`${PREFIX}${text}`);
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    throw new ParseFailure(e.message, e.position === undefined ? undefined : Math.max(0, e.position - PREFIX.length));
  }
  const spec = stmts.length === 1 ? stmts[0].stmt?.CreateStmt?.partspec : undefined;
  if (!spec) throw new ParseFailure('not one PARTITION BY key', undefined);
  return spec;
}

/** The single-name column references of an expression (util/tree's walk order does not matter here). */
function columnsRead(expr: Node): string[] {
  const out = new Set<string>();
  const stack: unknown[] = [expr];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    if (Array.isArray(n)) {
      stack.push(...n);
      continue;
    }
    const ref = (n as Node).ColumnRef;
    if (ref) {
      const f = ref.fields ?? [];
      const last = f[f.length - 1]?.String?.sval;
      if (typeof last === 'string') out.add(last);
      continue;
    }
    stack.push(...Object.values(n));
  }
  return [...out];
}

/** The column an element is: its name, or an expression that is one column alone (`(a)`, as PostgreSQL stores it). */
function columnOf(e: Node, expr: Node = e.expr): string | undefined {
  if (typeof e.name === 'string') return e.name;
  const fields = expr?.ColumnRef?.fields;
  return fields?.length === 1 && typeof fields[0].String?.sval === 'string' ? fields[0].String.sval : undefined;
}

function elementOf(e: Node, types: ReadonlyMap<string, string> | undefined): PartitionKeyElement {
  const own =
    (e.collation?.length ?? 0) > 0 || (e.opclass?.length ?? 0) > 0 ? { collationOrOpclass: true as const } : {};
  const column = columnOf(e);
  if (column !== undefined) return { column, reads: [column], ...own };
  let castTo: string | undefined;
  if (e.expr?.TypeCast) {
    try {
      castTo = typeFromNode(e.expr.TypeCast.typeName).base;
    } catch {
      castTo = undefined;
    }
  }
  const mutable = types ? mutableInKey(e.expr, types) : undefined;
  return {
    expression: true,
    reads: columnsRead(e.expr),
    ...(castTo ? { castTo } : {}),
    ...(mutable !== undefined ? { mutable } : {}),
    ...own,
  };
}

/**
 * Reads a PARTITION BY text (`range (ts)`, `list (lower(name))`); throws ParseFailure when it is
 * not one. `types`: the table's columns' types, to say what in an expression is not IMMUTABLE.
 */
export function readPartitionKey(text: string, types?: ReadonlyMap<string, string>): PartitionKeySpec {
  const plain = parsePartitionKey(text);
  if (plain) return { method: plain.method, elements: plain.columns.map((c) => ({ column: c, reads: [c] })) };
  const spec = specNode(text);
  const method = METHODS[String(spec.strategy)];
  if (!method) throw new ParseFailure(`not a partitioning method: ${String(spec.strategy)}`, undefined);
  return { method, elements: (spec.partParams ?? []).map((p: Node) => elementOf(p.PartitionElem ?? {}, types)) };
}

/** Types PostgreSQL turns into text without a function (a RelabelType it prints as `(col)::text`). */
const RELABELED_TO_TEXT = new Set(['character varying', 'character', 'bpchar', 'name']);

/**
 * `(tag)::text` on a column whose type PostgreSQL relabels as text is the column: pg_get_partkeydef
 * prints `lower((tag)::text)` for `lower(tag)` on a varchar column, the same stored key.
 */
function withoutRelabels(expr: Node, columnTypes: ReadonlyMap<string, string> | undefined): Node {
  if (!columnTypes) return expr;
  return copyTree(expr, {
    enter: (n) => {
      const cast = (n as Node)?.TypeCast;
      const fields = cast?.arg?.ColumnRef?.fields;
      if (!cast || fields?.length !== 1) return undefined;
      let to: string | undefined;
      try {
        to = typeFromNode(cast.typeName).base;
      } catch {
        to = undefined;
      }
      const from = columnTypes.get(String(fields[0].String?.sval)) ?? '';
      return to === 'text' && RELABELED_TO_TEXT.has(from.replace(/\(.*$/, '')) ? { node: cast.arg } : undefined;
    },
  });
}

function keyOf(text: string, columnTypes: ReadonlyMap<string, string> | undefined): string {
  const plain = parsePartitionKey(text);
  if (plain) return stableJson({ method: plain.method, columns: plain.columns });
  try {
    const spec = specNode(text);
    const elements = (spec.partParams ?? []).map((p: Node) => {
      const e = p.PartitionElem ?? {};
      const expr = e.expr === undefined ? undefined : withoutRelabels(e.expr, columnTypes);
      const name = columnOf(e, expr);
      const own = { collation: e.collation ?? [], opclass: e.opclass ?? [] };
      return name !== undefined ? { column: name, ...own } : { expr: normalizeNode(expr), ...own };
    });
    const method = METHODS[String(spec.strategy)] ?? String(spec.strategy);
    const columns = elements.every(
      (x: { column?: string; collation: unknown[]; opclass: unknown[] }) =>
        x.column !== undefined && x.collation.length === 0 && x.opclass.length === 0,
    );
    return stableJson(
      columns ? { method, columns: elements.map((x: { column?: string }) => x.column) } : { method, elements },
    );
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    return text.trim();
  }
}

/**
 * True when two PARTITION BY texts (or their absence) are the same key; `columnTypes` (the table's
 * column types by name) lets a relabel PostgreSQL printed stand for the column it relabels.
 */
export function samePartitionKey(
  a: string | undefined,
  b: string | undefined,
  columnTypes?: ReadonlyMap<string, string>,
): boolean {
  return a === b || (a !== undefined && b !== undefined && keyOf(a, columnTypes) === keyOf(b, columnTypes));
}
