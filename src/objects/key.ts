// How objects defined by SQL are compared: the statements' parse trees, normalised so that what
// PostgreSQL prints back (pg_get_viewdef, pg_get_indexdef, pg_get_constraintdef…) and what a
// user writes compare equal when they mean the same: positions dropped, casts of constants
// unwrapped, OR REPLACE / IF NOT EXISTS / ONLY ignored, unqualified relations in the default schema.
import { ParseFailure, parseStatements, type Node } from '../sql/pg-parse.js';
import { normalizeNode } from '../sql/normalize.js';
import { stableJson } from '../util/stable-json.js';
import { copyTree } from '../util/tree.js';
import { BASE_TYPE_FUNCTIONS } from './base-type.js';

const IGNORED = new Set(['replace', 'if_not_exists', 'inh', 'missing_ok']);

function tidy(node: Node, defaultSchema: string): Node {
  return copyTree(node, {
    keep: (k) => !IGNORED.has(k),
    leave: (out) => {
      if (typeof out.relname === 'string' && out.schemaname === undefined && 'relpersistence' in out)
        out.schemaname = defaultSchema;
    },
  });
}

const str = (sval: string): Node => ({ String: { sval } });
/** Object names that are lists rather than RangeVars get the default schema too (COMMENT ON, a trigger's function, a domain). */
function qualifyNames(stmt: Node, schema: string): Node {
  const prefix = (names: Node[] | undefined, bare: number): Node[] | undefined =>
    names && names.length === bare ? [str(schema), ...names] : names;
  const c = stmt.CommentStmt;
  if (c) {
    const bare: Readonly<Record<string, number>> = {
      OBJECT_TABLE: 1,
      OBJECT_VIEW: 1,
      OBJECT_MATVIEW: 1,
      OBJECT_INDEX: 1,
      OBJECT_SEQUENCE: 1,
      OBJECT_FOREIGN_TABLE: 1,
      OBJECT_CONVERSION: 1,
      OBJECT_COLUMN: 2,
      OBJECT_TABCONSTRAINT: 2,
      OBJECT_TRIGGER: 2,
      OBJECT_POLICY: 2,
    };
    const o = c.object;
    if (bare[c.objtype] !== undefined && o?.List) o.List.items = prefix(o.List.items, bare[c.objtype]!);
    if (o?.TypeName) o.TypeName.names = prefix(o.TypeName.names, 1);
    if (o?.ObjectWithArgs) o.ObjectWithArgs.objname = prefix(o.ObjectWithArgs.objname, 1);
  }
  if (stmt.CreateTrigStmt) stmt.CreateTrigStmt.funcname = prefix(stmt.CreateTrigStmt.funcname, 1);
  if (stmt.CreateDomainStmt) stmt.CreateDomainStmt.domainname = prefix(stmt.CreateDomainStmt.domainname, 1);
  if (stmt.CreateEnumStmt) stmt.CreateEnumStmt.typeName = prefix(stmt.CreateEnumStmt.typeName, 1);
  if (stmt.CreateRangeStmt) stmt.CreateRangeStmt.typeName = prefix(stmt.CreateRangeStmt.typeName, 1);
  const cv = stmt.CreateConversionStmt;
  if (cv) {
    // Encodings by their canonical (upper case) names; an unqualified function is pg_catalog's.
    cv.conversion_name = prefix(cv.conversion_name, 1);
    cv.func_name = cv.func_name?.length === 1 ? [str('pg_catalog'), ...cv.func_name] : cv.func_name;
    cv.for_encoding_name = String(cv.for_encoding_name).toUpperCase();
    cv.to_encoding_name = String(cv.to_encoding_name).toUpperCase();
  }
  qualifyTextSearch(stmt, prefix);
  serverCodeNames(stmt);
  // A base or shell type: its options in any order, its functions as regproc prints them.
  const ty = stmt.DefineStmt;
  if (ty?.kind === 'OBJECT_TYPE') {
    ty.defnames = prefix(ty.defnames, 1);
    for (const e of ty.definition ?? []) {
      const tn = e.DefElem?.arg?.TypeName;
      if (tn && BASE_TYPE_FUNCTIONS.includes(String(e.DefElem.defname))) tn.names = bareFunction(tn.names);
    }
    ty.definition = ty.definition?.sort((a: Node, b: Node) =>
      String(a.DefElem?.defname).localeCompare(String(b.DefElem?.defname)),
    );
  }
  // ALTER TABLE does to a view what ALTER VIEW does (pg_dump writes a view column's default with ALTER TABLE ONLY).
  if (stmt.AlterTableStmt?.objtype === 'OBJECT_VIEW') stmt.AlterTableStmt.objtype = 'OBJECT_TABLE';
  return stmt;
}

// PostgreSQL's own text search parser, templates and dictionaries (pg_catalog's), which the
// catalog prints unqualified or as pg_catalog.x, and a file may write bare.
export const BUILTIN_TEXT_SEARCH = /^(default|simple|synonym|thesaurus|ispell|snowball|[a-z]+_stem)$/;

/** Text search objects' names: the user's in the default schema, PostgreSQL's own in pg_catalog. */
function qualifyTextSearch(stmt: Node, prefix: (names: Node[] | undefined, bare: number) => Node[] | undefined): void {
  const own = (names: Node[] | undefined): Node[] | undefined =>
    names?.length === 1 && BUILTIN_TEXT_SEARCH.test(String(names[0]?.String?.sval))
      ? [str('pg_catalog'), ...names]
      : prefix(names, 1);
  const d = stmt.DefineStmt;
  if (d?.kind === 'OBJECT_TSDICTIONARY' || d?.kind === 'OBJECT_TSCONFIGURATION') {
    d.defnames = prefix(d.defnames, 1);
    for (const e of d.definition ?? []) {
      const tn = e.DefElem?.arg?.TypeName;
      if (tn && ['parser', 'template', 'copy'].includes(e.DefElem.defname)) tn.names = own(tn.names);
    }
  }
  // A parser's or template's functions as regproc prints them with search_path = public.
  if (d?.kind === 'OBJECT_TSPARSER' || d?.kind === 'OBJECT_TSTEMPLATE') {
    d.defnames = prefix(d.defnames, 1);
    for (const e of d.definition ?? []) {
      const tn = e.DefElem?.arg?.TypeName;
      if (tn) tn.names = bareFunction(tn.names);
    }
  }
  const a = stmt.AlterTSConfigurationStmt;
  if (a) {
    a.cfgname = prefix(a.cfgname, 1);
    for (const x of a.dicts ?? []) if (x.List) x.List.items = own(x.List.items);
  }
  if (stmt.AlterTSDictionaryStmt) stmt.AlterTSDictionaryStmt.dictname = prefix(stmt.AlterTSDictionaryStmt.dictname, 1);
  const c = stmt.CommentStmt;
  const named = ['OBJECT_TSCONFIGURATION', 'OBJECT_TSDICTIONARY', 'OBJECT_TSPARSER', 'OBJECT_TSTEMPLATE'];
  if (named.includes(c?.objtype) && c.object?.List) c.object.List.items = prefix(c.object.List.items, 1);
}

// Keys by statements: a plan computes each declared object's key, and the verification after an
// apply the same ones again. Up to KEYS_KEPT; then it starts afresh.
const KEYS_KEPT = 100_000;
const keys = new Map<string, string>();

/** The comparison key of an object's statements; the text itself when it does not parse. */
export function objectKey(statements: readonly string[], defaultSchema = 'public'): string {
  const memo = `${defaultSchema}\u0000${statements.join('\u0000')}`;
  let key = keys.get(memo);
  if (key === undefined) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    key = computeKey(statements, defaultSchema);
    keys.set(memo, key);
  }
  return key;
}

function computeKey(statements: readonly string[], defaultSchema: string): string {
  try {
    return stableJson(
      statements.map((s) =>
        parseStatements(s).map((x: Node) => tidy(normalizeNode(qualifyNames(x.stmt, defaultSchema)), defaultSchema)),
      ),
    );
  } catch (e) {
    if (e instanceof ParseFailure) return stableJson(statements);
    throw e;
  }
}

/**
 * The functions of objects built on the server's code as the catalog prints them (regproc with
 * search_path = public): pg_catalog's and public's unqualified; an event trigger's tags upper
 * case, as PostgreSQL keeps them.
 */
/** A function's name as regproc prints it with search_path = public: pg_catalog's and public's unqualified. */
const bareFunction = (names: Node[] | undefined): Node[] | undefined =>
  names?.length === 2 && ['pg_catalog', 'public'].includes(String(names[0]?.String?.sval)) ? names.slice(1) : names;

function serverCodeNames(stmt: Node): void {
  const am = stmt.CreateAmStmt;
  if (am) am.handler_name = bareFunction(am.handler_name);
  for (const d of stmt.CreateFdwStmt?.func_options ?? [])
    if (d.DefElem?.arg?.List) d.DefElem.arg.List.items = bareFunction(d.DefElem.arg.List.items);
  const pl = stmt.CreatePLangStmt;
  if (pl) for (const k of ['plhandler', 'plinline', 'plvalidator']) if (pl[k]) pl[k] = bareFunction(pl[k]);
  const tr = stmt.CreateTransformStmt;
  if (tr) for (const f of [tr.fromsql, tr.tosql]) if (f?.objname) f.objname = bareFunction(f.objname);
  const ev = stmt.CreateEventTrigStmt;
  if (ev) {
    ev.funcname = bareFunction(ev.funcname);
    for (const w of ev.whenclause ?? [])
      for (const t of w.DefElem?.arg?.List?.items ?? [])
        if (t.String) t.String.sval = String(t.String.sval).toUpperCase();
  }
}
