// Thin wrapper over libpg-query (PostgreSQL's own parser compiled to WASM): statements, type
// names and expressions from users are read with the real grammar, never with regular expressions.
import { loadPgWasm, pgWasm } from './pg-wasm.js';
import { cachedParse } from './parse-cache.js';
import { quoteIdent } from './quote.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Node = any;

/** Loads the WASM parser once; every other function here needs it loaded. */
export function loadParser(): Promise<void> {
  return loadPgWasm();
}

/** A parse failure with the 0-based byte offset (in the UTF-8 text) where PostgreSQL stopped. */
export class ParseFailure extends Error {
  constructor(
    message: string,
    readonly position: number | undefined,
  ) {
    super(message);
  }
}

/**
 * Parses SQL text into raw statements (each `{ stmt, stmt_location, stmt_len }`, locations in
 * bytes). Throws ParseFailure for text PostgreSQL does not accept, and a plain Error when the
 * parser is not loaded: callers that fall back on a parse failure must not fall back on that.
 */
export function parseStatements(sql: string): Node[] {
  const w = pgWasm();
  if (!w) throw new Error('the SQL parser is not loaded (call loadParser first)');
  if (sql.trim() === '') return [];
  const out = cachedParse(w, sql);
  if ('tree' in out) return ((JSON.parse(out.tree) as { stmts?: Node[] }).stmts ?? []) as Node[];
  // libpg_query reports a 1-based character index (0: none); every other position here is in
  // bytes, as the parse tree's locations are.
  throw new ParseFailure(out.error, Buffer.byteLength(sql.slice(0, Math.max(0, out.cursor - 1))));
}

/** parseStatements, or undefined for text PostgreSQL does not accept (the parser not loaded still throws). */
export function tryParseStatements(sql: string): Node[] | undefined {
  try {
    return parseStatements(sql);
  } catch (e) {
    if (e instanceof ParseFailure) return undefined;
    throw e;
  }
}

/** The single key of a parse-tree node: `{ SelectStmt: {...} }` gives ['SelectStmt', {...}]. */
export function nodeTag(node: Node): [string, Node] {
  const keys = Object.keys(node ?? {});
  if (keys.length !== 1) return ['', node];
  return [keys[0]!, node[keys[0]!]];
}

export function strings(list: Node[] | undefined): string[] {
  return (list ?? []).map((n) => n.String?.sval ?? '');
}

// Built-in type names as the parser writes them (pg_catalog.int4, or a bare int4 typed by the
// user) mapped to the names format_type() prints, so int/int4/integer all compare equal.
const BUILTIN: Readonly<Record<string, string>> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  bool: 'boolean',
  varchar: 'character varying',
  bpchar: 'character',
  numeric: 'numeric',
  text: 'text',
  timestamp: 'timestamp without time zone',
  timestamptz: 'timestamp with time zone',
  time: 'time without time zone',
  timetz: 'time with time zone',
  date: 'date',
  interval: 'interval',
  bytea: 'bytea',
  uuid: 'uuid',
  json: 'json',
  jsonb: 'jsonb',
  bit: 'bit',
  varbit: 'bit varying',
  name: 'name',
  oid: 'oid',
  inet: 'inet',
  cidr: 'cidr',
  money: 'money',
  xml: 'xml',
  char: '"char"',
  smallint: 'smallint',
  integer: 'integer',
  bigint: 'bigint',
  real: 'real',
  boolean: 'boolean',
  int: 'integer',
  decimal: 'numeric',
};
// Built-in types format_type() prints under their own names (not in BUILTIN: no alias to map).
const OTHER_BUILTIN: ReadonlySet<string> = new Set([
  'regclass',
  'regtype',
  'regproc',
  'regprocedure',
  'regoper',
  'regoperator',
  'regconfig',
  'regdictionary',
  'regnamespace',
  'regrole',
  'regcollation',
  'point',
  'line',
  'lseg',
  'box',
  'path',
  'polygon',
  'circle',
  'tsvector',
  'tsquery',
  'macaddr',
  'macaddr8',
  'pg_lsn',
  'int4range',
  'int8range',
  'numrange',
  'tsrange',
  'tstzrange',
  'daterange',
  'int4multirange',
  'int8multirange',
  'nummultirange',
  'tsmultirange',
  'tstzmultirange',
  'datemultirange',
  'jsonpath',
  'txid_snapshot',
  'pg_snapshot',
  'xid',
  'xid8',
  'cid',
  'tid',
]);
const BUILTIN_NAMES: ReadonlySet<string> = new Set([...Object.values(BUILTIN), ...OTHER_BUILTIN]);

/** True when a canonical type name (TypeInfo.base) is one of PostgreSQL's own, not a user's enum, domain or composite type. */
/** The built-in type names a user may write (int4, integer, timestamptz…), for suggestions. */
export function builtinTypeSpellings(): readonly string[] {
  return [...Object.keys(BUILTIN), ...new Set(Object.values(BUILTIN)), ...OTHER_BUILTIN];
}

export function isBuiltinType(base: string): boolean {
  const bare = base.replace(/(\[\])+$/, '');
  return bare.startsWith('pg_catalog.') || BUILTIN_NAMES.has(bare);
}

/** How DDL spells a serial column of each integer type. */
export const SERIAL_SPELLING: Readonly<Record<string, string>> = {
  smallint: 'smallserial',
  integer: 'serial',
  bigint: 'bigserial',
};
const SERIALS: Readonly<Record<string, string>> = {
  smallserial: 'smallint',
  serial2: 'smallint',
  serial: 'integer',
  serial4: 'integer',
  bigserial: 'bigint',
  serial8: 'bigint',
};

/** A type as the model keeps it: canonical base name for comparisons, full text for DDL. */
export interface TypeInfo {
  readonly base: string; // canonical name without modifiers, e.g. "character varying" or public."Money"
  readonly sql: string; // renderable text with modifiers and array bounds, e.g. "character varying(10)"
  readonly serial: boolean; // serial/bigserial: the column owns a sequence
}

/** Renders a parser TypeName node as canonical SQL text. */
export function typeFromNode(tn: Node): TypeInfo {
  if (tn.pct_type)
    throw new ParseFailure('%TYPE references are not supported here; write the type itself', tn.location);
  const names = strings(tn.names);
  let base: string;
  let serial = false;
  const last = names[names.length - 1]!;
  if (names.length === 2 && names[0] === 'pg_catalog' && BUILTIN[last]) base = BUILTIN[last]!;
  else if (names.length === 1 && SERIALS[last]) {
    base = SERIALS[last]!;
    serial = true;
  } else if (names.length === 1 && BUILTIN[last]) base = BUILTIN[last]!;
  else base = names.map(quoteIdent).join('.');
  const mods = (tn.typmods ?? []).map((m: Node) => {
    const v = m.A_Const?.ival?.ival ?? (m.A_Const?.ival && 0);
    if (typeof v !== 'number') throw new ParseFailure('only integer type modifiers are supported', tn.location);
    return v;
  });
  if (base === 'interval' && mods.length > 0)
    throw new ParseFailure('interval field restrictions are not supported; use interval', tn.location);
  // A serial column keeps its spelling in DDL (it creates the sequence); comparisons use the base.
  let sql = serial ? SERIAL_SPELLING[base]! : base;
  if (mods.length > 0) {
    const m = `(${mods.join(',')})`;
    const zone = /^(timestamp|time) (with(out)? time zone)$/.exec(base);
    sql = zone ? `${zone[1]}${m} ${zone[2]}` : `${base}${m}`;
  }
  const dims = (tn.arrayBounds ?? []).length;
  if (dims > 0) sql += '[]'.repeat(dims);
  return { base: dims > 0 ? `${base}${'[]'.repeat(dims)}` : base, sql, serial };
}

/** Parses user text embedded in a statement (prefix + text + suffix); errors point into the text. */
export function parseEmbedded(prefix: string, text: string, suffix: string, what: string): Node[] {
  try {
    return parseStatements(`${prefix}${text}${suffix}`);
  } catch (e) {
    const f = e as ParseFailure;
    throw new ParseFailure(
      `not ${what}: ${f.message}`,
      f.position === undefined ? undefined : Math.max(0, f.position - prefix.length),
    );
  }
}

// A schema spells the same few types and defaults over and over: parsed once (pure functions of the text).
const typeCache = new Map<string, Readonly<TypeInfo>>();
const expressionsChecked = new Set<string>();
const CACHE_LIMIT = 10_000;

/** Parses a column type such as `numeric(12,2)` or `varchar(10)[]`; throws ParseFailure. */
export function parseTypeText(text: string): TypeInfo {
  const known = typeCache.get(text);
  if (known) return { ...known };
  const info = parseTypeUncached(text);
  if (typeCache.size >= CACHE_LIMIT) typeCache.clear();
  typeCache.set(text, Object.freeze({ ...info }));
  return info;
}

function parseTypeUncached(text: string): TypeInfo {
  const stmts = parseEmbedded('CREATE TABLE t (c ', text, ')', 'a type');
  const create = stmts.length === 1 ? stmts[0].stmt.CreateStmt : undefined;
  const elts = create?.tableElts ?? [];
  const col = elts.length === 1 ? elts[0].ColumnDef : undefined;
  if (!col || col.constraints || col.collClause || !col.typeName)
    throw new ParseFailure(
      'not a single type name (constraints, defaults and collations have their own fields)',
      undefined,
    );
  const info = typeFromNode(col.typeName);
  // bpchar without a length is blank-padded text of any length; `character` alone is character(1).
  const dims = '[]'.repeat((col.typeName.arrayBounds ?? []).length);
  const unbounded = strings(col.typeName.names).at(-1) === 'bpchar' && !col.typeName.typmods;
  return unbounded ? { ...info, base: `bpchar${dims}`, sql: `bpchar${dims}` } : info;
}

/** True for a SELECT that is not a UNION/INTERSECT/EXCEPT (the parser spells "none" SETOP_NONE). */
export function isPlainSelect(sel: Node): boolean {
  return !sel.op || sel.op === 'SETOP_NONE';
}

/** Checks that text is exactly one SQL expression (as a column default); throws ParseFailure. */
export function checkExpression(text: string): void {
  if (expressionsChecked.has(text)) return;
  const stmts = parseEmbedded('SELECT ', text, '', 'an expression');
  const sel = stmts.length === 1 ? stmts[0].stmt.SelectStmt : undefined;
  const ok =
    sel &&
    sel.targetList?.length === 1 &&
    !sel.fromClause &&
    !sel.whereClause &&
    !sel.groupClause &&
    !sel.havingClause &&
    !sel.sortClause &&
    !sel.limitCount &&
    !sel.limitOffset &&
    isPlainSelect(sel) &&
    !sel.windowClause &&
    !sel.withClause &&
    !sel.intoClause &&
    !sel.distinctClause &&
    !sel.lockingClause &&
    !sel.targetList[0].ResTarget?.name;
  if (!ok) throw new ParseFailure('not a single expression', undefined);
  // The plan writes more after the expression (`, NOT NULL`, `)`): text ending in a `--` comment
  // would comment that out, and what runs would not be what the plan shows.
  // Only text holding `--` can end in one.
  if (
    text.includes('--') &&
    tryParseStatements(`SELECT (${text}\n)`)?.length === 1 &&
    tryParseStatements(`SELECT (${text})`) === undefined
  )
    throw new ParseFailure('ends in a -- comment, which would comment out what the plan writes after it', undefined);
  if (expressionsChecked.size >= CACHE_LIMIT) expressionsChecked.clear();
  expressionsChecked.add(text);
}
