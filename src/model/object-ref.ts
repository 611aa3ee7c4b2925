// How objects are named to one another: "table app.t", "relation app.v", "routine app.f(integer)",
// "schema app". One string form, shared by the plan's `object` and unmanaged list, `ignore:`
// globs, the dependencies of SQL-defined objects (`parent`, `deps`) and the catalog query, which
// builds the same strings in SQL (introspect/catalog-objects.ts, catalog-privileges.ts). Every
// name in it is quoted as quote.ts quotes it, so a ref never has to be split on dots.
//
// - table: a table the manifest models (its columns, keys, indexes and partitions are its parts);
// - relation: anything in pg_class another object references (a table, view, partition);
// - sequence, type, index: those objects;
// - routine: a function or procedure, by name ("app.f") or by signature ("app.f(integer)");
// - schema: a schema, its name quoted;
// - column: a column of a relation ("column app.t.c"), row: a relation's whole row ("row app.t"),
//   as a view or policy reads them;
// - constraint: a table's constraint as a comment names it ("constraint app.t.c");
// - statistics: an extended statistics object (CREATE STATISTICS); collation: a collation;
// - publication: a publication (logical replication), server: a foreign server, by their names.
// No other module spells a ref: each is built here (an ESLint rule refuses a template literal that
// spells one elsewhere) and read by parseRef / refId.
import { quoteIdent, quoteQualified, type QualifiedName } from '../sql/quote.js';

export type RefKind =
  | 'table'
  | 'relation'
  | 'sequence'
  | 'type'
  | 'index'
  | 'routine'
  | 'schema'
  | 'column'
  | 'row'
  | 'constraint'
  | 'statistics'
  | 'collation'
  | 'publication'
  | 'server'
  | 'cast';

/** A parsed ref: `id` is the quoted name after the kind ("app.t", "app.f(integer)", "app"). */
export type ObjectRef =
  | { readonly kind: Exclude<RefKind, 'routine'>; readonly id: string }
  | {
      readonly kind: 'routine';
      readonly id: string;
      /** The routine's name without its argument list ("app.f"). */
      readonly name: string;
      /** Its argument list as written between the parentheses, when the ref names a signature. */
      readonly args?: string;
    };

/** Every kind, in the order parseRef tries them (eslint.config.js lists them too: a test holds both equal). */
export const REF_KINDS: readonly RefKind[] = [
  'table',
  'relation',
  'sequence',
  'type',
  'index',
  'routine',
  'schema',
  'column',
  'row',
  'constraint',
  'statistics',
  'collation',
  'publication',
  'server',
  'cast',
];

const idText = (x: QualifiedName | string): string => (typeof x === 'string' ? x : quoteQualified(x));

/** "table app.t": a modelled table, from its id or qualified name. */
export const tableRef = (t: QualifiedName | string): string => `table ${idText(t)}`;
/** "relation app.t": a table, view or partition as other objects reference it. */
export const relationRef = (t: QualifiedName | string): string => `relation ${idText(t)}`;
/** "sequence app.s". */
export const sequenceRef = (s: QualifiedName | string): string => `sequence ${idText(s)}`;
/** "type app.e": an enum, domain or composite type (a table's row type too). */
export const typeRef = (t: QualifiedName | string): string => `type ${idText(t)}`;
/** "index app.i". */
export const indexRef = (i: QualifiedName | string): string => `index ${idText(i)}`;
/** "routine app.f" or "routine app.f(integer)": by name, or by the signature given as text. */
export const routineRef = (r: QualifiedName | string): string => `routine ${idText(r)}`;
/** "schema app": the schema's name quoted. */
export const schemaRef = (name: string): string => `schema ${quoteIdent(name)}`;

/** "column app.t.c": a column of a relation (given by its id or qualified name), its name quoted. */
export const columnRef = (t: QualifiedName | string, column: string): string =>
  `column ${idText(t)}.${quoteIdent(column)}`;
/** What every columnRef of the relation starts with ("column app.t."). */
export const columnRefPrefix = (t: QualifiedName | string): string => `column ${idText(t)}.`;
/** "row app.t": a relation's whole row (a view that reads `t.*`, a whole-row reference). */
export const rowRef = (t: QualifiedName | string): string => `row ${idText(t)}`;
/** "constraint app.t.c": a constraint named by its table and name as the catalog's name gives them. */
export const constraintRef = (name: string): string => `constraint ${name}`;

/** "statistics app.s": an extended statistics object. */
export const statisticsRef = (s: QualifiedName | string): string => `statistics ${idText(s)}`;

/** "collation app.c". */
export const collationRef = (c: QualifiedName | string): string => `collation ${idText(c)}`;
/** "cast (app.m AS numeric)": a cast, by its types as the catalog prints them (objects/cast.ts). */
export const castRef = (types: string): string => `cast ${types}`;

/** "publication p": a publication, its name quoted. */
export const publicationRef = (name: string): string => `publication ${name}`;
export const subscriptionRef = (name: string): string => `subscription ${name}`;

/** "server s": a foreign server, its name quoted. */
export const serverRef = (name: string): string => `server ${name}`;

/** Builds the text of a parsed ref. */
export const refText = (r: ObjectRef): string => `${r.kind} ${r.id}`;

/** Reads a ref of one of the kinds above; undefined for any other text (a view's "view app.v"…). */
export function parseRef(text: string): ObjectRef | undefined {
  const space = text.indexOf(' ');
  if (space < 0) return undefined;
  const kind = text.slice(0, space) as RefKind;
  if (!REF_KINDS.includes(kind)) return undefined;
  const id = text.slice(space + 1);
  if (kind !== 'routine') return { kind, id };
  const paren = routineParen(id);
  return paren < 0
    ? { kind, id, name: id }
    : { kind, id, name: id.slice(0, paren), args: id.slice(paren + 1, id.endsWith(')') ? -1 : undefined) };
}

/** The id a ref of this kind names ("relation app.t" → "app.t"), undefined for a ref of another kind. */
export function refId(text: string, kind: RefKind): string | undefined {
  return text.startsWith(`${kind} `) ? text.slice(kind.length + 1) : undefined;
}

/** A relation named as the plan names a table ("relation app.t" → "table app.t"); any other text as it is. */
export function relationAsTable(text: string): string {
  const id = refId(text, 'relation');
  return id === undefined ? text : tableRef(id);
}

/** A routine's signature or ref without its argument list: "routine app.f(int)" → "routine app.f". */
export function withoutArgs(text: string): string {
  const paren = routineParen(text);
  return paren < 0 ? text : text.slice(0, paren);
}

// The first parenthesis outside double quotes: a quoted name may hold one ("app"."f(x)").
function routineParen(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === '(' && !quoted) return i;
  }
  return -1;
}
