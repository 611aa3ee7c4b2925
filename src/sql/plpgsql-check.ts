// PL/pgSQL bodies read with PostgreSQL's own PL/pgSQL compiler (libpg_query's, in WASM), so a
// syntax error inside a routine body is found at validate, not at apply. libpg_query reports no
// position for PL/pgSQL errors, so the position is found by re-parsing prefixes of the body.
import { callWithText, loadPgWasm, pgWasm } from './pg-wasm.js';
import { strings, tryParseStatements, type Node } from './pg-parse.js';

/** Loads the PL/pgSQL parser once (the SQL parser's module); plpgsqlProblem needs it loaded. */
export function loadPlpgsqlParser(): Promise<void> {
  return loadPgWasm();
}

/** The loaded module; throws when it is not. */
function loaded() {
  const w = pgWasm();
  if (!w) throw new Error('the PL/pgSQL parser is not loaded (call loadPlpgsqlParser first)');
  return w;
}

// A routine file is compiled when the manifest is resolved (its check) and again by the locality
// analysis (its tree): the compiler's answer is kept by text (the check's bisection is not kept).
const compiled = new Map<string, string>();
const CACHE_LIMIT = 1_000;

/** The PL/pgSQL compiler's answer for `sql` (its tree as JSON, or its error message). */
function compile(sql: string, keep: boolean): string {
  const known = compiled.get(sql);
  if (known !== undefined) return known;
  const w = loaded();
  const out = callWithText(w, (p) => w._wasm_parse_plpgsql(p), sql);
  if (keep) {
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(sql, out);
  }
  return out;
}

/** The compile error of the PL/pgSQL routines in `sql`, or undefined when they compile. */
function compileError(sql: string, keep = false): string | undefined {
  const out = compile(sql, keep);
  return out.startsWith('{') ? undefined : out;
}

/**
 * The PL/pgSQL compiler's tree of the routines in `sql` (CREATE FUNCTION/PROCEDURE statements):
 * `{ plpgsql_funcs: [{ PLpgSQL_function: { datums, action } }] }`, or undefined when they do not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function parsePlpgsql(sql: string): any {
  loaded();
  const out = compile(sql, true);
  return out.startsWith('{') ? JSON.parse(out) : undefined;
}

interface Token {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly tokenName: string;
}

const ENTRY = /\{"start":(\d+),"end":(\d+),"text":"(?:[^"\\]|\\.)*","tokenType":-?\d+,"tokenName":"(\w+)"/g;
const PREFIX = /\{"start":(\d+),"end":(\d+),"text":"/g;

/** What a token is, from its first characters (for one whose entry the scanner cut short). */
const kindOf = (text: string): string =>
  /^([eEbBxXnNuU]&?)?'|^\$/.test(text)
    ? 'SCONST'
    : text.startsWith('"')
      ? 'IDENT'
      : text.startsWith('--')
        ? 'SQL_COMMENT'
        : text.startsWith('/*')
          ? 'C_COMMENT'
          : 'UNKNOWN';

/**
 * The tokens of `sql` (byte offsets), with their text taken from `sql` itself. libpg_query's
 * scanner writes each token into a fixed-size buffer: a token longer than about a kilobyte (a
 * routine's body, a long string) cuts its entry and everything after it short, and the JSON
 * does not parse. The complete entries are kept, the cut one is read from its offsets (which
 * come first), and scanning starts again after it.
 */
function scan(sql: string): Token[] {
  const bytes = Buffer.from(sql);
  const tokens: Token[] = [];
  const add = (offset: number, start: number, end: number, name?: string): void => {
    const text = bytes.subarray(offset + start, offset + end).toString();
    tokens.push({ start: offset + start, end: offset + end, text, tokenName: name ?? kindOf(text) });
  };
  for (let offset = 0; offset < bytes.length;) {
    const w = loaded();
    const out = callWithText(w, (p) => w._wasm_scan(p), bytes.subarray(offset).toString());
    let whole: { tokens: Token[] } | undefined;
    try {
      whole = JSON.parse(out) as { tokens: Token[] };
    } catch {
      whole = undefined;
    }
    if (whole) {
      for (const t of whole.tokens) add(offset, t.start, t.end, t.tokenName);
      break;
    }
    for (const m of out.matchAll(ENTRY)) add(offset, Number(m[1]), Number(m[2]), m[3]);
    // The last entry begun is the one cut short (quotes inside texts are escaped: no false match).
    const cut = [...out.matchAll(PREFIX)].pop();
    if (!cut) throw new Error(`the SQL scanner's answer does not parse: ${out.slice(0, 200)}`);
    add(offset, Number(cut[1]), Number(cut[2]));
    offset += Number(cut[2]);
  }
  return tokens;
}

/** The body's string token in the statement, and where the body text starts (bytes). */
function bodyToken(text: string, body: string): { token: Token; offsetOf(bodyByte: number): number } | undefined {
  for (const token of scan(text)) {
    if (token.tokenName !== 'SCONST') continue;
    const tag = /^\$[^$]*\$/.exec(token.text)?.[0];
    if (tag && token.text.slice(tag.length, -tag.length) === body) {
      return { token, offsetOf: (b) => token.start + Buffer.byteLength(tag) + b };
    }
    if (token.text.startsWith("'") && token.text.slice(1, -1).replace(/''/g, "'") === body) {
      // In '…' a quote of the body is written twice: count the source bytes of the prefix.
      return {
        token,
        offsetOf: (b) =>
          token.start + 1 + Buffer.byteLength(Buffer.from(body).subarray(0, b).toString().replace(/'/g, "''")),
      };
    }
  }
  return undefined;
}

/** The 1-based line of `text` (one CREATE FUNCTION/PROCEDURE statement) its body `body` starts on. */
export function bodyStartLine(text: string, body: string): number | undefined {
  loaded();
  const where = bodyToken(text, body);
  if (!where) return undefined;
  return Buffer.from(text).subarray(0, where.offsetOf(0)).toString().split('\n').length;
}

/**
 * The offline compiler knows no parameter's type: OPEN on a refcursor parameter (by name or $n)
 * gets "must be of type cursor or refcursor", which PostgreSQL does not say (its regression
 * plpgsql.sql). True for that message on a parameter declared refcursor.
 */
function refcursorParameter(text: string, message: string): boolean {
  const v = /^variable "(.+)" must be of type cursor or refcursor$/.exec(message)?.[1];
  if (v === undefined) return false;
  const params: Node[] = (tryParseStatements(text)?.[0]?.stmt?.CreateFunctionStmt?.parameters ?? []).map(
    (p: Node) => p.FunctionParameter,
  );
  const n = /^\$(\d+)$/.exec(v);
  const p = n ? params[Number(n[1]) - 1] : params.find((x) => x?.name === v);
  return strings(p?.argType?.names).at(-1) === 'refcursor';
}

/**
 * Why the PL/pgSQL routine in `text` (one CREATE FUNCTION/PROCEDURE statement whose body is
 * `body`) does not compile, with the byte offset in `text` of the offending token.
 */
export function plpgsqlProblem(text: string, body: string): { message: string; position?: number } | undefined {
  loaded();
  const message = compileError(text, true);
  if (message === undefined || refcursorParameter(text, message)) return undefined;
  const where = bodyToken(text, body);
  if (!where) return { message };
  const bytes = Buffer.from(body);
  const tokens = scan(body).filter((t) => !t.tokenName.endsWith('COMMENT'));
  if (tokens.length === 0) return { message, position: where.offsetOf(0) };
  // "at end of input": the body ended while a block or statement was still open.
  if (message.endsWith('at end of input'))
    return { message, position: where.offsetOf(tokens[tokens.length - 1]!.start) };
  // Same text with the body cut after token k: the first k that gives the same error is where
  // the compiler stopped (or the end of the SQL statement it was checking).
  let tag = '$cm$';
  for (let i = 1; body.includes(tag); i++) tag = `$cm${i}$`;
  const before = Buffer.from(text).subarray(0, where.token.start).toString();
  const after = Buffer.from(text).subarray(where.token.end).toString();
  const cut = (t: Token): string => `${before}${tag}${bytes.subarray(0, t.end).toString()}${tag}${after}`;
  // Cut before the error, the body fails otherwise (an unfinished block); cut at or after it, with
  // the same message: the first such k is found by bisection (a linear search compiled the whole
  // text once per token: 30 s for a 400-statement body).
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compileError(cut(tokens[mid]!)) === message) hi = mid;
    else lo = mid + 1;
  }
  const k = lo < tokens.length ? lo : -1;
  if (k === -1) return { message, position: where.offsetOf(tokens[0]!.start) };
  // The token the message names ("at or near "x"", ""y" is not a known variable"), at or before k.
  const named = /"([^"]+)"/.exec(message)?.[1];
  const at =
    named === undefined
      ? k
      : tokens
          .slice(0, k + 1)
          .map((t) => t.text)
          .lastIndexOf(named);
  return { message, position: where.offsetOf(tokens[at === -1 ? k : at]!.start) };
}
