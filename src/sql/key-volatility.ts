// Whether a partition key expression calls what PostgreSQL 15 does not mark IMMUTABLE, which it
// refuses ("functions in partition key expression must be marked IMMUTABLE") only when the table
// is created: caught when the manifest is read instead. Not a resolver of every overload: the
// built-in functions and casts a time-based key reaches for whose result depends on a setting
// (TimeZone, DateStyle: pg_proc's provolatile 's' on PostgreSQL 15), read with the types the
// manifest gives the key's columns, and the functions that never are (now(), random()…). What it
// cannot type it leaves to PostgreSQL (plan --prove runs it). Pure.
import { strings, typeFromNode, type Node } from './pg-parse.js';

const TZ = 'timestamp with time zone';
const TS = 'timestamp without time zone';
/** What is never immutable, whatever its arguments. */
const NEVER = new Set([
  'now',
  'random',
  'clock_timestamp',
  'statement_timestamp',
  'transaction_timestamp',
  'timeofday',
  'nextval',
  'currval',
  'gen_random_uuid',
  'txid_current',
  'age',
  'to_char',
  'to_date',
  'make_timestamptz',
]);
/** Built-ins that are STABLE given an argument of the type at that position (pg_proc). */
const STABLE_WHEN: Readonly<Record<string, readonly [number, string][]>> = {
  date_trunc: [[1, TZ]],
  date_part: [[1, TZ]],
  extract: [[1, TZ]],
  date: [[0, TZ]],
};
/** Casts whose function is STABLE (pg_cast, pg_proc): source → targets. */
const STABLE_CASTS: Readonly<Record<string, readonly string[]>> = {
  [TZ]: ['date', TS, 'time without time zone', 'time with time zone'],
  [TS]: [TZ],
  date: [TZ],
  'time without time zone': ['time with time zone'],
};
/** Types read from text by their input function, STABLE for these (DateStyle, TimeZone). */
const STABLE_INPUT = new Set(['date', TS, TZ, 'time with time zone', 'interval']);
const TEXTS = new Set(['text', 'character varying', 'character']);
/** What a few functions give, for the type of what contains them. */
const RESULT: Readonly<Record<string, (args: (string | undefined)[]) => string | undefined>> = {
  date_trunc: (a) => a[1],
  timezone: (a) => (a[1] === TZ ? TS : a[1] === TS ? TZ : undefined),
  lower: (a) => a[0],
  upper: (a) => a[0],
};

type Found = { readonly found?: string; readonly type?: string };

function walk(n: Node, columns: ReadonlyMap<string, string>): Found {
  if (n === null || typeof n !== 'object') return {};
  if (n.ColumnRef) {
    const f = strings(n.ColumnRef.fields ?? []);
    return f.length === 1 ? { type: columns.get(f[0]!) } : {};
  }
  if (n.SQLValueFunction) return { found: 'CURRENT_DATE, CURRENT_TIMESTAMP and the like' };
  if (n.TypeCast) {
    const inner = walk(n.TypeCast.arg, columns);
    if (inner.found) return inner;
    let to: string | undefined;
    try {
      to = typeFromNode(n.TypeCast.typeName).base;
    } catch {
      return {};
    }
    const from = inner.type;
    if (from && STABLE_CASTS[from]?.includes(to)) return { found: `the cast ${from} → ${to}`, type: to };
    if (from && TEXTS.has(from) && STABLE_INPUT.has(to)) return { found: `the cast ${from} → ${to}`, type: to };
    return { type: to };
  }
  if (n.FuncCall) {
    const name = strings(n.FuncCall.funcname ?? []).at(-1) ?? '';
    const args = (n.FuncCall.args ?? []).map((a: Node) => walk(a, columns));
    const inner = args.find((a: Found) => a.found);
    if (inner) return inner;
    // (to_timestamp(double precision) is immutable; to_timestamp(text, text) reads DateStyle)
    if (NEVER.has(name) || (name === 'to_timestamp' && args.length === 2)) return { found: `${name}()` };
    const types = args.map((a: Found) => a.type);
    const hit = STABLE_WHEN[name]?.find(([i, t]) => types[i] === t);
    if (hit) return { found: `${name}(…${hit[1]}…)` };
    return { type: RESULT[name]?.(types) };
  }
  // Any other node: what it holds (an operator's operands, a CASE's branches, a list).
  for (const v of Object.values(n)) {
    const inner = Array.isArray(v) ? v.map((x) => walk(x, columns)).find((x) => x.found) : walk(v, columns);
    if (inner?.found) return { found: inner.found };
  }
  return {};
}

/**
 * What in a partition key expression (a parse tree) is not IMMUTABLE, named, or undefined.
 * `columns`: the table's columns and their types (TypeInfo.base).
 */
export const mutableInKey = (expr: Node, columns: ReadonlyMap<string, string>): string | undefined =>
  walk(expr, columns).found;
