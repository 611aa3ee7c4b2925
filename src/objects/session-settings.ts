// The SET lines of a `sql:` file. None of them is run: the plan renders each declaration on its
// own, with `SET LOCAL search_path TO <schema>` before it when the file named one. So a line is
// accepted only when the plan means the same without it: `SET search_path TO <one schema>`
// (unqualified names of the lines after it are in that schema, as the plan shows), and the
// session settings pg_dump writes at the top of a file, at values that change nothing the
// statements mean. Anything else (SET ROLE, SET SESSION AUTHORIZATION, RESET ALL, a setting
// with an effect, pg_dump's lines at other values) is refused, located, with why: the file would
// say something the plan does not do.
import { isPlainSelect, strings, type Node } from '../sql/pg-parse.js';

/** Settings whose value changes nothing the plan's statements mean or who runs them. */
const ANY_VALUE = new Set([
  'statement_timeout',
  'lock_timeout',
  'idle_in_transaction_session_timeout',
  'transaction_timeout',
  'client_min_messages',
  'check_function_bodies',
  'row_security',
]);

/**
 * Settings pg_dump writes whose other values would change what the statements after them mean
 * (how strings and XML are read, where and how a materialized view is stored): accepted at the
 * value the plan's statements run with, which is the one pg_dump writes.
 */
const NEUTRAL: Readonly<Record<string, { readonly dump: string; readonly ok: (v: string) => boolean }>> = {
  client_encoding: { dump: "'UTF8'", ok: (v) => /^(utf-?8|unicode)$/i.test(v) }, // the files are read as UTF-8
  standard_conforming_strings: { dump: 'on', ok: (v) => ['on', 'true', '1'].includes(v.toLowerCase()) }, // as the plan's preamble
  xmloption: { dump: 'content', ok: (v) => v.toLowerCase() === 'content' },
  default_tablespace: { dump: "''", ok: (v) => v === '' },
  default_table_access_method: { dump: 'heap', ok: (v) => v === 'heap' },
  default_with_oids: { dump: 'false', ok: (v) => ['off', 'false', '0'].includes(v.toLowerCase()) },
};

/** Settings that change whose privileges the statements after them run with. */
const IDENTITY = new Set(['role', 'session_authorization']);

/** The statement as written, for messages: `SET LOCAL x`, `RESET x`, `RESET ALL`, `SET x TO DEFAULT`. */
function spelled(v: Node): string {
  const raw = String(v.name ?? '');
  const name = raw === 'session_authorization' ? 'SESSION AUTHORIZATION' : raw === 'role' ? 'ROLE' : raw;
  const local = v.is_local ? 'LOCAL ' : '';
  switch (v.kind) {
    case 'VAR_RESET':
      return `RESET ${name}`;
    case 'VAR_RESET_ALL':
      return 'RESET ALL';
    case 'VAR_SET_DEFAULT':
      return `SET ${local}${name} TO DEFAULT`;
    case 'VAR_SET_CURRENT':
      return `SET ${local}${name} FROM CURRENT`;
    case 'VAR_SET_MULTI':
      return `SET ${name}`; // TRANSACTION, SESSION CHARACTERISTICS
    default:
      return `SET ${local}${name}`;
  }
}

/** One constant's text (`0` when the parser omits a zero), or undefined for anything else. */
function constant(arg: Node): string | undefined {
  const c = arg?.A_Const;
  if (!c) return undefined;
  if (c.sval) return String(c.sval.sval ?? '');
  if (c.ival) return String(c.ival.ival ?? 0);
  if (c.fval) return String(c.fval.fval);
  if (c.boolval) return String(c.boolval.boolval ?? false);
  return undefined;
}

const NOT_RUN = 'the plan would not run it (it renders each declaration on its own)';

/** The schema of `SET search_path TO …`, or why the line is refused. */
function searchPath(v: Node): { schema: string } | string {
  const what = spelled(v);
  if (v.is_local)
    return `${what} is refused: write SET search_path TO <schema> (it holds for the rest of the file, and the plan sets it before each statement after it)`;
  if (v.kind !== 'VAR_SET_VALUE')
    return `${what} is refused: write SET search_path TO <schema> (the plan sets that schema before each statement after it)`;
  const names = (v.args ?? []).map(constant);
  // pg_dump before PostgreSQL 10.3 wrote `SET search_path = app, pg_catalog`: pg_catalog is
  // searched first in the plan's statements anyway.
  if (names.length === 2 && names[1] === 'pg_catalog') names.pop();
  if (names.length !== 1 || names[0] === undefined)
    return `${what} names ${names.length} schemas: the plan runs each statement after it with search_path set to one schema (pg_catalog searched first), so name one: SET search_path TO <schema>`;
  const schema = names[0];
  if (schema === '$user' || /^pg_/i.test(schema))
    return `${what} TO ${JSON.stringify(schema)} is refused: name the schema the statements after it declare their objects in (not "$user", pg_catalog or pg_temp)`;
  return { schema };
}

/**
 * A SET line or pg_dump's `SELECT pg_catalog.set_config('search_path', '', false)`: the schema of
 * unqualified names after it (undefined: unchanged), or why it is refused; `false` for any other statement.
 */
export function sessionSetting(stmt: Node): { schema?: string } | string | false {
  const v = stmt.VariableSetStmt;
  if (v) {
    const what = spelled(v);
    if (v.name === 'search_path') return searchPath(v);
    if (v.kind === 'VAR_RESET_ALL')
      return `${what} is refused: it resets every session setting, the role among them; ${NOT_RUN}`;
    if (IDENTITY.has(v.name))
      return `${what} is refused: it changes whose privileges the statements after it run with; the plan runs each statement as the role that applies it, and would not run this line`;
    const simple = !v.is_local && (v.kind === 'VAR_SET_VALUE' || v.kind === 'VAR_SET_DEFAULT');
    if (simple && ANY_VALUE.has(v.name)) return {};
    const neutral = NEUTRAL[v.name];
    if (simple && neutral) {
      const value = v.kind === 'VAR_SET_DEFAULT' ? undefined : v.args?.length === 1 ? constant(v.args[0]) : '';
      if (value === undefined || neutral.ok(value)) return {};
      return `${what} TO ${JSON.stringify(value)} is refused: it would change what the statements after it mean, and ${NOT_RUN}; only pg_dump's ${what} TO ${neutral.dump} is accepted`;
    }
    return `${what} is refused: ${NOT_RUN}; a sql: file may hold SET search_path TO <schema> and the session settings pg_dump writes`;
  }
  const sel = stmt.SelectStmt;
  if (!sel) return false;
  const call = sel.targetList?.length === 1 && !sel.fromClause ? sel.targetList[0].ResTarget?.val?.FuncCall : undefined;
  const args: Node[] = call?.args ?? [];
  const isDumpSearchPath =
    call !== undefined &&
    strings(call.funcname).join('.') === 'pg_catalog.set_config' &&
    args.length === 3 &&
    args[0].A_Const?.sval?.sval === 'search_path' &&
    (args[1].A_Const?.sval?.sval ?? null) === '' &&
    args[2].A_Const?.boolval !== undefined &&
    !args[2].A_Const.boolval.boolval &&
    !sel.whereClause &&
    isPlainSelect(sel) &&
    !sel.withClause;
  if (isDumpSearchPath) return {};
  return "a SELECT is not a declaration and is not run by the plan (only pg_dump's set_config('search_path', '', false) line is accepted): call functions from a migration of your own, not from a sql: file";
}
