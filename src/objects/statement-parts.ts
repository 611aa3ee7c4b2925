// Parts of the statements of `sql:` files the object reader needs: names as the catalog query
// spells them, what a statement references, an enum's labels after ADD VALUE,
// an extension's options, and where in a file an error is (a COMMENT's target: comment-target.ts).
import { parseStatements, strings, tryParseStatements, type Node } from '../sql/pg-parse.js';
import { quoteIdent, quoteQualified } from '../sql/quote.js';
import { relationRef, routineRef, typeRef } from '../model/object-ref.js';
import { eachMember } from '../util/tree.js';

export { byteLocator, lineCol } from './source-position.js';

export const relName = (rv: Node, defaultSchema: string): string =>
  quoteQualified({ schema: rv.schemaname ?? defaultSchema, name: rv.relname });
export const listName = (names: string[], defaultSchema: string): string =>
  names.length === 1 ? quoteQualified({ schema: defaultSchema, name: names[0]! }) : names.map(quoteIdent).join('.');

/** Every relation, type and function a statement names: what it may depend on (util/tree.ts: no recursion). */
export function references(node: Node, defaultSchema: string, out = new Set<string>()): Set<string> {
  eachMember(node, (k, value) => {
    const x = value as Node;
    if (x === null || typeof x !== 'object') return;
    if ((k === 'RangeVar' || k === 'relation' || k === 'table') && x?.relname)
      out.add(relationRef(relName(x, defaultSchema)));
    if (k === 'TypeName' || k === 'typeName' || k === 'argType' || k === 'returnType') {
      const names = strings(Array.isArray(x) ? x : x?.names);
      if (names.length > 0 && names[0] !== 'pg_catalog') out.add(typeRef(listName(names, defaultSchema)));
    }
    if (k === 'FuncCall' || k === 'funcname') {
      const names = strings(k === 'funcname' ? x : x?.funcname);
      if (names.length > 0 && names[0] !== 'pg_catalog') out.add(routineRef(listName(names, defaultSchema)));
    }
  });
  return out;
}

/** The functions an expression calls, as written (schema when qualified), in order; none when it does not parse. */
export function expressionCalls(expression: string): { schema?: string; name: string }[] {
  const out: { schema?: string; name: string }[] = [];
  eachMember(tryParseStatements(`SELECT ${expression}`) ?? [], (k, value) => {
    if (k !== 'FuncCall' || value === null || typeof value !== 'object') return;
    const names = strings((value as Node).funcname);
    if (names.length === 0) return;
    out.push({ ...(names.length > 1 ? { schema: names[names.length - 2]! } : {}), name: names[names.length - 1]! });
  });
  return out;
}

/** The schema a statement creates its object in (or comments on), which must exist first (raw name). */
export function createdSchema(stmt: Node, schema: string): string | undefined {
  const inList = (names: string[]): string => (names.length > 1 ? names[0]! : schema);
  if (stmt.ViewStmt) return stmt.ViewStmt.view.schemaname ?? schema;
  if (stmt.CreateTableAsStmt) return stmt.CreateTableAsStmt.into.rel.schemaname ?? schema;
  if (stmt.CompositeTypeStmt) return stmt.CompositeTypeStmt.typevar.schemaname ?? schema;
  if (stmt.CreateEnumStmt) return inList(strings(stmt.CreateEnumStmt.typeName));
  if (stmt.CreateDomainStmt) return inList(strings(stmt.CreateDomainStmt.domainname));
  if (stmt.CreateRangeStmt) return inList(strings(stmt.CreateRangeStmt.typeName));
  if (stmt.CreateExtensionStmt) return extensionOptions(stmt.CreateExtensionStmt).schema;
  if (stmt.CreateStatsStmt?.defnames) return inList(strings(stmt.CreateStatsStmt.defnames));
  if (stmt.CreateConversionStmt) return inList(strings(stmt.CreateConversionStmt.conversion_name));
  if (stmt.CreateForeignTableStmt) return stmt.CreateForeignTableStmt.base.relation.schemaname ?? schema;
  // CREATE COLLATION, CREATE TEXT SEARCH DICTIONARY / CONFIGURATION
  if (/^OBJECT_(COLLATION|TSDICTIONARY|TSCONFIGURATION)$/.test(stmt.DefineStmt?.kind ?? ''))
    return inList(strings(stmt.DefineStmt.defnames));
  // A comment on a schema needs the schema: declared by the comment, as GRANT … ON SCHEMA declares it.
  if (stmt.CommentStmt?.objtype === 'OBJECT_SCHEMA') return stmt.CommentStmt.object.String.sval;
  // So does ALTER SCHEMA … OWNER TO.
  if (stmt.AlterOwnerStmt?.objectType === 'OBJECT_SCHEMA') return stmt.AlterOwnerStmt.object.String.sval;
  return undefined;
}

export function addEnumLabel(labels: readonly string[], s: Node): string[] | string {
  const v: string = s.newVal;
  if (labels.includes(v)) return s.skipIfNewValExists ? [...labels] : `label ${JSON.stringify(v)} is added twice`;
  if (s.newValNeighbor === undefined) return [...labels, v];
  const at = labels.indexOf(s.newValNeighbor);
  if (at < 0) return `label ${JSON.stringify(s.newValNeighbor)} is not a label of this enum`;
  const out = [...labels];
  out.splice(s.newValIsAfter ? at + 1 : at, 0, v);
  return out;
}

export function extensionOptions(s: Node): { schema?: string; version?: string } {
  const out: { schema?: string; version?: string } = {};
  for (const o of s.options ?? []) {
    const d = o.DefElem;
    if (d.defname === 'schema') out.schema = d.arg.String.sval;
    if (d.defname === 'new_version') out.version = d.arg.String.sval;
  }
  return out;
}

/** Splits a name rendered by quoteQualified back into its parts. */
export function splitQualified(q: string): [string, string] {
  const stmts = parseStatements(`SELECT NULL::${q}`);
  const names = strings(stmts[0].stmt.SelectStmt.targetList[0].ResTarget.val.TypeCast.typeName.names);
  return [names[0]!, names[1]!];
}

/**
 * The table and name of the CHECK one `ALTER TABLE … ADD CONSTRAINT name CHECK (…)` adds, and
 * whether it is NOT VALID; undefined for any other statement.
 */
export function addedCheck(
  statement: string,
  defaultSchema: string,
): { table: { schema: string; name: string }; name: string; notValid: boolean } | undefined {
  // (A CHECK constraint spells the keyword: any other statement is not parsed.)
  const parsed = /check/i.test(statement) ? tryParseStatements(statement) : undefined;
  const alter = parsed?.length === 1 ? parsed[0].stmt?.AlterTableStmt : undefined;
  const cmd = alter?.cmds?.length === 1 ? alter.cmds[0].AlterTableCmd : undefined;
  const con = cmd?.subtype === 'AT_AddConstraint' ? cmd.def?.Constraint : undefined;
  if (!con || con.contype !== 'CONSTR_CHECK' || !con.conname) return undefined;
  return {
    table: { schema: alter.relation.schemaname ?? defaultSchema, name: alter.relation.relname },
    name: con.conname,
    notValid: con.skip_validation === true,
  };
}

/** The table (`{schema, name}`) and name of the index a CREATE INDEX statement builds; undefined for any other statement. */
export function createdIndex(
  statement: string,
  defaultSchema: string,
): { table: { schema: string; name: string }; name?: string; concurrent: boolean } | undefined {
  const parsed = /index/i.test(statement) ? tryParseStatements(statement) : undefined;
  const ix = parsed?.length === 1 ? parsed[0].stmt?.IndexStmt : undefined;
  if (!ix?.relation) return undefined;
  return {
    table: { schema: ix.relation.schemaname ?? defaultSchema, name: ix.relation.relname },
    ...(ix.idxname ? { name: ix.idxname } : {}),
    concurrent: ix.concurrent === true,
  };
}

// Blanks and comments between two tokens (a block comment does not nest here: such a statement
// is left as it is).
const GAP = String.raw`(?:\s|--[^\n]*(?:\n|$)|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/)`;
const INDEX_HEAD = new RegExp(
  String.raw`^(${GAP}*CREATE${GAP}+(?:UNIQUE${GAP}+)?INDEX)(${GAP}+CONCURRENTLY)?(?=${GAP})`,
  'i',
);

/**
 * A CREATE INDEX statement's text with CONCURRENTLY said (`on`) or not, the rest as written;
 * undefined when the text is not surely that statement with only that changed (checked by parsing).
 */
export function indexConcurrently(statement: string, on: boolean): string | undefined {
  const head = INDEX_HEAD.exec(statement);
  if (!head) return undefined;
  const rest = statement.slice(head[0].length);
  const out = `${head[1]}${on ? ' CONCURRENTLY' : ''}${rest}`;
  const before = tryParseStatements(statement);
  const after = tryParseStatements(out);
  const a = before?.length === 1 ? before[0].stmt?.IndexStmt : undefined;
  const b = after?.length === 1 ? after[0].stmt?.IndexStmt : undefined;
  if (!a || !b || b.concurrent !== (on || undefined)) return undefined;
  const same = (x: Node): string =>
    JSON.stringify({ ...x, concurrent: undefined }, (k, v) => (k === 'location' ? undefined : v));
  return same(a) === same(b) ? out : undefined;
}

/**
 * The former name a `-- renamed_from: old_name` line among the comments above a statement gives
 * (an identifier, double-quoted when it needs to be), or undefined.
 */
export function renamedFromComment(leading: string): string | undefined {
  const m = /^\s*--\s*renamed_from:\s*("(?:[^"]|"")+"|[^\s"]+)\s*$/m.exec(leading);
  if (!m) return undefined;
  const name = m[1]!;
  return name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase();
}
