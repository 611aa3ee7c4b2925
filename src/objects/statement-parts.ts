// Parts of the statements of `sql:` files the object reader needs: names as the catalog query
// spells them, what a statement references, a COMMENT's target, an enum's labels after ADD VALUE,
// an extension's options, and where in a file an error is.
import { parseStatements, strings, tryParseStatements, type Node } from '../sql/pg-parse.js';
import { castTypeName } from './cast-name.js';
import { quoteIdent, quoteQualified } from '../sql/quote.js';
import {
  castRef,
  collationRef,
  indexRef,
  relationRef,
  routineRef,
  sequenceRef,
  statisticsRef,
  typeRef,
  publicationRef,
  subscriptionRef,
  serverRef,
} from '../model/object-ref.js';
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

const COMMENT_TARGETS: Readonly<Record<string, string>> = {
  OBJECT_TABLE: 'TABLE',
  OBJECT_VIEW: 'VIEW',
  OBJECT_MATVIEW: 'MATERIALIZED VIEW',
  OBJECT_SEQUENCE: 'SEQUENCE',
  OBJECT_COLUMN: 'COLUMN',
  OBJECT_INDEX: 'INDEX',
  OBJECT_FUNCTION: 'FUNCTION',
  OBJECT_PROCEDURE: 'PROCEDURE',
  OBJECT_AGGREGATE: 'AGGREGATE',
  OBJECT_RULE: 'RULE',
  OBJECT_TYPE: 'TYPE',
  OBJECT_DOMAIN: 'DOMAIN',
  OBJECT_SCHEMA: 'SCHEMA',
  OBJECT_TABCONSTRAINT: 'CONSTRAINT',
  OBJECT_TRIGGER: 'TRIGGER',
  OBJECT_POLICY: 'POLICY',
  OBJECT_EXTENSION: 'EXTENSION',
  OBJECT_STATISTIC_EXT: 'STATISTICS',
  OBJECT_COLLATION: 'COLLATION',
  OBJECT_PUBLICATION: 'PUBLICATION',
  OBJECT_SUBSCRIPTION: 'SUBSCRIPTION',
  OBJECT_FOREIGN_SERVER: 'SERVER',
  OBJECT_FOREIGN_TABLE: 'FOREIGN TABLE',
  OBJECT_CAST: 'CAST',
  OBJECT_CONVERSION: 'CONVERSION',
  OBJECT_TSDICTIONARY: 'TEXT SEARCH DICTIONARY',
  OBJECT_TSCONFIGURATION: 'TEXT SEARCH CONFIGURATION',
  OBJECT_OPCLASS: 'OPERATOR CLASS',
  OBJECT_OPFAMILY: 'OPERATOR FAMILY',
};

/** Targets named by a qualified name, and the object a comment on one belongs to. */
const LISTED: Readonly<Record<string, (n: string) => string>> = {
  SEQUENCE: sequenceRef,
  STATISTICS: statisticsRef,
  COLLATION: collationRef,
  CONVERSION: (n) => `conversion ${n}`,
  'TEXT SEARCH DICTIONARY': (n) => `text search dictionary ${n}`,
  'TEXT SEARCH CONFIGURATION': (n) => `text search configuration ${n}`,
};

/** The target of a COMMENT as the catalog query spells it ("COLUMN", "app.t.c"), and what it belongs to. */
export function commentTarget(
  c: Node,
  defaultSchema: string,
  argTypes: (n: Node) => string,
): { keyword: string; target: string; parent?: string; needs?: string[] } | string {
  // A domain's constraint goes with its domain (`positive ON DOMAIN app.posint`).
  if (c.objtype === 'OBJECT_DOMCONSTRAINT') {
    const [type, name] = c.object.List.items as Node[];
    const domain = listName(strings(type!.TypeName.names), defaultSchema);
    return {
      keyword: 'CONSTRAINT',
      target: `${quoteIdent(name!.String.sval)} ON DOMAIN ${domain}`,
      parent: typeRef(domain),
    };
  }
  const keyword = COMMENT_TARGETS[c.objtype];
  if (!keyword) return `COMMENT ON ${String(c.objtype).replace(/^OBJECT_/, '')} is not managed here`;
  const obj = c.object;
  const items = obj?.List ? strings(obj.List.items) : obj?.String ? [obj.String.sval] : [];
  const listed = LISTED[keyword];
  if (listed) {
    const n = listName(items, defaultSchema);
    return { keyword, target: n, parent: listed(n) };
  }
  switch (keyword) {
    case 'SCHEMA':
    case 'EXTENSION':
      return { keyword, target: quoteIdent(items[0]!) };
    case 'OPERATOR CLASS':
    case 'OPERATOR FAMILY': {
      // The parser puts the method first: [method, schema, name].
      const target = `${listName(items.slice(1), defaultSchema)} USING ${quoteIdent(items[0]!)}`;
      return { keyword, target, parent: `${keyword.toLowerCase()} ${target}` };
    }
    case 'COLUMN': {
      const col = items[items.length - 1]!;
      const table = listName(items.slice(0, -1), defaultSchema);
      return { keyword, target: `${table}.${quoteIdent(col)}`, parent: relationRef(table) };
    }
    case 'CONSTRAINT':
    case 'TRIGGER':
    case 'RULE':
    case 'POLICY': {
      const own = items[items.length - 1]!;
      const table = listName(items.slice(0, -1), defaultSchema);
      // It comes after the constraint, trigger, rule or policy it is on (diff/object-order.ts).
      const on = `${keyword === 'CONSTRAINT' ? 'constraint' : keyword.toLowerCase()} ${table}.${quoteIdent(own)}`;
      return { keyword, target: `${quoteIdent(own)} ON ${table}`, parent: relationRef(table), needs: [on] };
    }
    case 'INDEX': {
      const n = listName(items, defaultSchema);
      return { keyword, target: n, parent: indexRef(n) };
    }
    case 'FUNCTION':
    case 'PROCEDURE':
    case 'AGGREGATE': {
      const owa = obj.ObjectWithArgs;
      const n = listName(strings(owa.objname), defaultSchema);
      // An aggregate of * (COMMENT ON AGGREGATE a(*)) has no argument types.
      const args = keyword === 'AGGREGATE' && (owa.objargs ?? []).length === 0 ? '*' : argTypes(owa);
      return { keyword, target: `${n}(${args})`, parent: routineRef(n) };
    }
    case 'TYPE':
    case 'DOMAIN': {
      const n = listName(strings(obj.TypeName.names), defaultSchema);
      return { keyword, target: n, parent: typeRef(n) };
    }
    case 'SERVER':
      return { keyword, target: quoteIdent(items[0]!), parent: serverRef(quoteIdent(items[0]!)) };
    case 'PUBLICATION':
      return { keyword, target: quoteIdent(items[0]!), parent: publicationRef(quoteIdent(items[0]!)) };
    case 'SUBSCRIPTION':
      return { keyword, target: quoteIdent(items[0]!), parent: subscriptionRef(quoteIdent(items[0]!)) };
    case 'CAST': {
      const [from, to] = (obj?.List?.items ?? []).map((t: Node) => castTypeName(t.TypeName, defaultSchema));
      const n = `(${from} AS ${to})`;
      return { keyword, target: n, parent: castRef(n) };
    }
    default: {
      const n = listName(items, defaultSchema);
      return { keyword, target: n, parent: relationRef(n) };
    }
  }
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
