// Reads a CREATE FUNCTION / CREATE PROCEDURE statement, or a bare signature such as
// `payment(integer, numeric)`, through PostgreSQL's parser and returns what the tool needs.
import {
  isPlainSelect,
  ParseFailure,
  parseEmbedded,
  parseStatements,
  strings,
  tryParseStatements,
  typeFromNode,
  type Node,
  type TypeInfo,
} from './pg-parse.js';

export type ArgMode = 'in' | 'out' | 'inout' | 'variadic' | 'table';

export interface RoutineArg {
  readonly mode: ArgMode;
  readonly name?: string;
  readonly type: TypeInfo;
  readonly hasDefault: boolean;
}

export interface ParsedRoutine {
  readonly schema?: string;
  readonly name: string;
  readonly kind: 'function' | 'procedure';
  readonly args: readonly RoutineArg[];
  readonly returns?: string; // canonical return type; "setof x"/"table(...)" spelled out
  readonly returnsSet: boolean;
  readonly language: string;
  readonly replace: boolean;
  readonly securityDefiner: boolean;
  readonly hasSetOptions: boolean;
  readonly volatility: 'volatile' | 'stable' | 'immutable';
  readonly strict: boolean;
  /** A SQL-language function whose body the planner can inline (Citus then never delegates it). */
  readonly inlinable: boolean;
  /** The statement's own text: no trailing semicolon or comments after it. */
  readonly statement: string;
  /** The body as a string (AS '…' or AS $$…$$), absent for a standard-SQL BEGIN ATOMIC / RETURN body. */
  readonly body?: string;
}

const MODES: Readonly<Record<string, ArgMode>> = {
  FUNC_PARAM_IN: 'in',
  FUNC_PARAM_DEFAULT: 'in',
  FUNC_PARAM_OUT: 'out',
  FUNC_PARAM_INOUT: 'inout',
  FUNC_PARAM_VARIADIC: 'variadic',
  FUNC_PARAM_TABLE: 'table',
};

/** The argument types that identify a routine: what regprocedure takes and pg_proc.proargtypes holds. */
export function identityArgs(args: readonly RoutineArg[]): RoutineArg[] {
  // OUT arguments are not part of it, for procedures either: 'p(integer,integer,text)'::regprocedure
  // fails for PROCEDURE p(a int, OUT b int, INOUT c text), whose proargtypes is {integer,text}.
  return args.filter((a) => a.mode === 'in' || a.mode === 'inout' || a.mode === 'variadic');
}

function option(options: Node[] | undefined, name: string): Node | undefined {
  return (options ?? []).map((o) => o.DefElem).find((d) => d?.defname === name);
}

function sqlBodyIsSimpleSelect(stmt: Node, language: string): boolean {
  if (language !== 'sql') return false;
  if (stmt.sql_body) {
    // RETURN expr (a ReturnStmt) is the inlinable standard-SQL form; BEGIN ATOMIC lists are not.
    return Boolean(stmt.sql_body.ReturnStmt);
  }
  const body = option(stmt.options, 'as')?.arg?.List?.items?.[0]?.String?.sval;
  if (typeof body !== 'string') return false;
  const inner = tryParseStatements(body);
  const sel = inner?.length === 1 ? inner[0].stmt.SelectStmt : undefined;
  return Boolean(sel && isPlainSelect(sel) && !sel.withClause && !sel.intoClause && !sel.lockingClause);
}

/** The byte offset of the first non-blank character at or after `offset` (statements start after the previous ';'). */
function skipBlank(text: string, offset: number): number {
  const bytes = Buffer.from(text, 'utf8');
  let i = offset;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return i;
}

function statementText(text: string, raw: Node): string {
  // Offsets from the parser count bytes of UTF-8; slice bytes, not UTF-16 units.
  const bytes = Buffer.from(text, 'utf8');
  const start = raw.stmt_location ?? 0;
  const end = raw.stmt_len ? start + raw.stmt_len : bytes.length;
  return bytes.subarray(start, end).toString('utf8').trim().replace(/;$/, '').trimEnd();
}

// A routine file is parsed when the manifest is resolved and again by the locality analysis: the
// result is kept (a pure function of the text; frozen, so no caller changes what another gets).
const parsedRoutines = new Map<string, ParsedRoutine>();
const CACHE_LIMIT = 1_000;

/** Parses the text of one CREATE FUNCTION/PROCEDURE statement (once per text); throws ParseFailure. */
export function parseRoutineSql(text: string): ParsedRoutine {
  const known = parsedRoutines.get(text);
  if (known) return known;
  const parsed = parseRoutineUncached(text);
  Object.freeze(parsed.args);
  if (parsedRoutines.size >= CACHE_LIMIT) parsedRoutines.clear();
  parsedRoutines.set(text, Object.freeze(parsed));
  return parsed;
}

function parseRoutineUncached(text: string): ParsedRoutine {
  const stmts = parseStatements(text);
  if (stmts.length === 0)
    throw new ParseFailure('holds no statement; expected one CREATE FUNCTION or CREATE PROCEDURE', undefined);
  if (stmts.length > 1)
    throw new ParseFailure(
      `holds ${stmts.length} statements; expected exactly one CREATE FUNCTION or CREATE PROCEDURE`,
      skipBlank(text, stmts[1].stmt_location ?? 0),
    );
  const stmt = stmts[0].stmt.CreateFunctionStmt;
  if (!stmt)
    throw new ParseFailure(
      `is a ${Object.keys(stmts[0].stmt)[0]}; expected CREATE FUNCTION or CREATE PROCEDURE`,
      stmts[0].stmt_location ?? 0,
    );
  const names = strings(stmt.funcname);
  const kind = stmt.is_procedure ? 'procedure' : 'function';
  const args: RoutineArg[] = (stmt.parameters ?? []).map((p: Node) => {
    const fp = p.FunctionParameter;
    return {
      mode: MODES[fp.mode] ?? 'in',
      ...(fp.name ? { name: fp.name } : {}),
      type: typeFromNode(fp.argType),
      hasDefault: Boolean(fp.defexpr),
    };
  });
  let returns: string | undefined;
  let returnsSet = false;
  if (stmt.returnType) {
    const rt = typeFromNode(stmt.returnType);
    const tableCols = args.filter((a) => a.mode === 'table');
    returnsSet = Boolean(stmt.returnType.setof) || tableCols.length > 0;
    returns =
      tableCols.length > 0
        ? `table(${tableCols.map((a) => `${a.name ?? ''} ${a.type.sql}`.trim()).join(', ')})`
        : `${stmt.returnType.setof ? 'setof ' : ''}${rt.sql}`;
  }
  const language = String(
    option(stmt.options, 'language')?.arg?.String?.sval ?? (stmt.sql_body ? 'sql' : ''),
  ).toLowerCase();
  if (!language) throw new ParseFailure('has no LANGUAGE clause', stmts[0].stmt_location ?? 0);
  const volatility = (option(stmt.options, 'volatility')?.arg?.String?.sval ??
    'volatile') as ParsedRoutine['volatility'];
  const securityDefiner = option(stmt.options, 'security')?.arg?.Boolean?.boolval === true;
  const strict = option(stmt.options, 'strict')?.arg?.Boolean?.boolval === true;
  const hasSetOptions = Boolean(option(stmt.options, 'set'));
  const simple = kind === 'function' && !securityDefiner && !hasSetOptions && sqlBodyIsSimpleSelect(stmt, language);
  // Scalar SQL functions are inlined whatever their volatility; set-returning ones only when
  // they are not volatile (PostgreSQL's inline_function / inline_set_returning_function).
  const inlinable = simple && (!returnsSet || volatility !== 'volatile');
  const body: unknown = option(stmt.options, 'as')?.arg?.List?.items?.[0]?.String?.sval;
  return {
    ...(names.length > 1 ? { schema: names[names.length - 2]! } : {}),
    name: names[names.length - 1]!,
    kind,
    args,
    ...(returns !== undefined ? { returns } : {}),
    returnsSet,
    language,
    replace: Boolean(stmt.replace),
    securityDefiner,
    hasSetOptions,
    volatility,
    strict,
    inlinable,
    statement: statementText(text, stmts[0]),
    ...(typeof body === 'string' ? { body } : {}),
  };
}

/** Parses a signature such as `app.payment(integer, numeric)` (types only, no names). */
export function parseSignature(text: string): { schema?: string; name: string; argTypes: TypeInfo[] } {
  const stmts = parseEmbedded('DROP ROUTINE ', text, '', 'a signature');
  const owa = stmts.length === 1 ? stmts[0].stmt.DropStmt?.objects?.[0]?.ObjectWithArgs : undefined;
  if (!owa || stmts[0].stmt.DropStmt.objects.length !== 1 || owa.args_unspecified) {
    throw new ParseFailure('not a signature: expected name(type, ...)', undefined);
  }
  const names = strings(owa.objname);
  return {
    ...(names.length > 1 ? { schema: names[names.length - 2]! } : {}),
    name: names[names.length - 1]!,
    argTypes: (owa.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t)),
  };
}
