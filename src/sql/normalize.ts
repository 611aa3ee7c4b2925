// Compares SQL the way PostgreSQL sees it, not as text: defaults and routine definitions read
// back from the catalog (pg_get_expr, pg_get_functiondef) differ in spelling from what users
// write ('x'::text vs 'x', int vs integer, option order), so both sides go through the parser.
import {
  isBuiltinType,
  parseStatements,
  tryParseStatements,
  typeFromNode,
  type Node,
  type TypeInfo,
} from './pg-parse.js';
import { stableJson } from '../util/stable-json.js';
import { normalizeBoundValue } from './partition-bound.js';
import { copyTree } from '../util/tree.js';

/** Strips positions, unwraps casts of constants, and spells every constant as text. */
export function normalizeNode(node: Node): Node {
  // util/tree.ts: without recursion, however deep the expression.
  return copyTree(node, {
    keep: (k) => k !== 'location' && k !== 'stmt_location' && k !== 'stmt_len',
    enter: (n) => {
      const x = n as Node;
      if (!x || typeof x !== 'object' || Array.isArray(x)) return undefined;
      if (x.TypeCast && x.TypeCast.arg?.A_Const) return { node: x.TypeCast.arg };
      if (!x.A_Const) return undefined;
      const c = x.A_Const;
      const v =
        c.ival?.ival ??
        (c.ival ? 0 : undefined) ??
        c.fval?.fval ??
        c.sval?.sval ??
        c.boolval?.boolval ??
        (c.isnull ? null : undefined);
      return { final: { const: v === undefined ? null : String(v) } };
    },
  });
}

/** The normalized parse tree of one expression, or undefined when it does not parse. */
export function expressionKey(text: string): string | undefined {
  // The parser not loaded still throws: comparing text instead would plan spurious changes.
  const stmts = tryParseStatements(`SELECT ${text}`);
  if (stmts?.length !== 1) return undefined;
  return stableJson(normalizeNode(stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val));
}

/** True when two default expressions mean the same thing (on a column of `type`, when given). */
export function sameExpression(a: string | undefined, b: string | undefined, type?: TypeInfo): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a === b) return true;
  const ka = type ? defaultKey(a, type) : expressionKey(a);
  return ka !== undefined && ka === (type ? defaultKey(b, type) : expressionKey(b));
}

const unqualified = (base: string): string => base.replace(/^.*\./, '');

/**
 * A cast of a constant that PostgreSQL would not add itself: to a user's type (an enum, a domain)
 * other than the column's own. `'active'::status` on a text column is stored as the enum's
 * value turned into text, not the text 'active'; `'x'::text` or `'x'::character varying` is
 * only how PostgreSQL prints a constant coerced to the column's type (or to a domain's base).
 */
function meaningfulCast(castBase: string, column: TypeInfo): boolean {
  if (castBase === column.base || unqualified(castBase) === unqualified(column.base)) return false;
  return !isBuiltinType(castBase);
}

/**
 * A time constant as PostgreSQL prints it back (TimeZone UTC and DateStyle ISO, pinned where the
 * plan writes it and where the catalog is read): `'2024-01-01 00:00'` on a timestamptz column is
 * the default `'2024-01-01 00:00:00+00'`. Other constants are left as written.
 */
function timeConstant(val: Node, column: TypeInfo): Node {
  const constant = val?.TypeCast?.arg?.A_Const ?? val?.A_Const;
  const sval = constant?.sval?.sval;
  if (typeof sval !== 'string') return val;
  const canonical = normalizeBoundValue(sval, column.base);
  if (canonical === sval) return val;
  const replaced = { ...constant, sval: { sval: canonical } };
  return val.TypeCast ? { TypeCast: { ...val.TypeCast, arg: { A_Const: replaced } } } : { A_Const: replaced };
}

/** The key of a column default: as expressionKey, but a meaningful cast of a constant at the top is kept. */
function defaultKey(text: string, column: TypeInfo): string | undefined {
  const stmts = tryParseStatements(`SELECT ${text}`);
  if (stmts?.length !== 1) return undefined;
  const val = timeConstant(stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val, column);
  const cast = val?.TypeCast;
  if (cast?.arg?.A_Const) {
    let castBase: string | undefined;
    try {
      castBase = typeFromNode(cast.typeName).base;
    } catch {
      castBase = undefined; // a type the model does not spell (%TYPE…): compared as before
    }
    if (castBase !== undefined && meaningfulCast(castBase, column))
      return stableJson({ cast: castBase, arg: normalizeNode(cast.arg) });
  }
  return stableJson(normalizeNode(val));
}

interface RoutineShape {
  readonly full: string;
  readonly result: string;
  readonly params: string;
}

/** The parts of a CREATE FUNCTION/PROCEDURE that matter, normalized; undefined when not one. */
export function routineShape(sql: string): RoutineShape | undefined {
  const stmts = tryParseStatements(sql);
  const stmt: Node = stmts?.length === 1 ? stmts[0].stmt.CreateFunctionStmt : undefined;
  if (!stmt) return undefined;
  const params = (stmt.parameters ?? []).map((p: Node) => {
    const fp = p.FunctionParameter;
    return {
      name: fp.name ?? null,
      mode: fp.mode === 'FUNC_PARAM_DEFAULT' ? 'FUNC_PARAM_IN' : fp.mode,
      type: typeFromNode(fp.argType).base, // argument typmods are not kept by PostgreSQL
      default: fp.defexpr ? normalizeNode(fp.defexpr) : null,
    };
  });
  const options: Record<string, unknown> = {};
  for (const o of stmt.options ?? []) {
    const d = o.DefElem;
    let value = normalizeNode(d.arg);
    if (d.defname === 'language') value = String(d.arg?.String?.sval ?? '').toLowerCase();
    if (d.defname === 'cost' && stableJson(value) === stableJson({ Integer: { ival: 100 } })) continue;
    const v = stableJson(value);
    // Options at their defaults are what the catalog prints without: left out on both sides.
    if (d.defname === 'volatility' && v === '{"String":{"sval":"volatile"}}') continue;
    if (d.defname === 'strict' || d.defname === 'security' || d.defname === 'leakproof' || d.defname === 'window') {
      if (v === '{"Boolean":{}}' || v === '{"Boolean":{"boolval":false}}') continue;
    }
    if (d.defname === 'parallel' && v === '{"String":{"sval":"unsafe"}}') continue;
    options[d.defname] = value;
  }
  const returns = stmt.returnType
    ? { type: typeFromNode(stmt.returnType).base, setof: Boolean(stmt.returnType.setof) }
    : null;
  const outputs = params
    .filter((p: { mode: string }) => p.mode !== 'FUNC_PARAM_IN' && p.mode !== 'FUNC_PARAM_VARIADIC')
    .map((p: { mode: string; type: string }) => [p.mode, p.type]);
  return {
    full: stableJson({
      procedure: Boolean(stmt.is_procedure),
      params,
      returns,
      options,
      body: stmt.sql_body ? normalizeNode(stmt.sql_body) : null,
    }),
    result: stableJson({ returns, outputs }),
    params: stableJson(params.map((p: { name: string; mode: string; type: string }) => [p.name, p.mode, p.type])),
  };
}

/**
 * What a reviewer compares of a routine: its body as written (AS '…' / $$…$$, kept verbatim by
 * PostgreSQL), or the whole statement for a BEGIN ATOMIC body or one that does not parse.
 */
export function routineBody(sql: string): string {
  const stmts = tryParseStatements(sql);
  const stmt = stmts?.length === 1 ? stmts[0].stmt.CreateFunctionStmt : undefined;
  const as = stmt?.options?.find((o: Node) => o.DefElem?.defname === 'as')?.DefElem?.arg?.List?.items?.[0]?.String
    ?.sval;
  return typeof as === 'string' ? as.replace(/^\n/, '').replace(/\s+$/, '') : sql.trim();
}

/** How a routine's stored definition differs from the wanted one. */
export function compareRoutines(wanted: string, actual: string): 'same' | 'replace' | 'recreate' {
  const w = routineShape(wanted);
  const a = routineShape(actual);
  if (!w || !a) return 'replace';
  if (w.full === a.full) return 'same';
  // CREATE OR REPLACE cannot change the result type or the argument names and modes.
  return w.result === a.result && w.params === a.params ? 'replace' : 'recreate';
}

/** Makes a CREATE FUNCTION/PROCEDURE statement a CREATE OR REPLACE one, checked by the parser. */
export function orReplace(sql: string): string {
  const m = /^((?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*)CREATE(\s+)(?!OR\s)/i.exec(sql);
  if (!m) return sql;
  const out = `${m[1]}CREATE OR REPLACE${m[2]}${sql.slice(m[0].length)}`;
  const stmts = parseStatements(out);
  if (stmts.length !== 1 || !stmts[0].stmt.CreateFunctionStmt?.replace)
    throw new Error('could not make the definition CREATE OR REPLACE');
  return out;
}
