// CREATE AGGREGATE in sql: files (issue #23: real schemas use them; pagila's group_concat). A
// plain aggregate of one or more arguments is an object like a view: named by its identity
// arguments as the catalog names it ("public.group_concat(text)"), it provides the routine name
// views call it by, and it needs the functions and types its options name: ordered-set and
// hypothetical ones, of * and VARIADIC ones too.
import type { Node } from '../sql/pg-parse.js';
import { strings } from '../sql/pg-parse.js';
import { listName } from './statement-parts.js';
import { operatorDecl } from './operator.js';
import { BUILTIN_TEXT_SEARCH } from './key.js';
import { baseTypeObject } from './base-type.js';
import { routineRef, typeRef } from '../model/object-ref.js';

// The options whose value is a function (the parser reads them as type names).
const FUNCTION_OPTIONS = new Set([
  'sfunc',
  'finalfunc',
  'combinefunc',
  'serialfunc',
  'deserialfunc',
  'msfunc',
  'minvfunc',
  'mfinalfunc',
]);
const TYPE_OPTIONS = new Set(['stype', 'mstype']);

export interface AggregateDecl {
  readonly name: string;
  readonly deps: readonly string[];
}

/** The aggregate a DefineStmt declares, or why it is not managed. */
export function aggregateDecl(
  s: Node,
  defaultSchema: string,
  argTypes: (objectWithArgs: Node) => string,
): AggregateDecl | string {
  if (s.oldstyle)
    return 'write CREATE AGGREGATE name (argument types) (SFUNC = …, STYPE = …): the old BASETYPE form is not managed';
  const params: Node[] = (s.args?.[0]?.List?.items ?? []).map((p: Node) => p.FunctionParameter);
  if (params.some((p) => p?.argType === undefined)) return 'not understood: an aggregate argument without a type';
  // Named by its argument types, direct and aggregated together, as the catalog names it (of *:
  // none). `VARIADIC "any" ORDER BY VARIADIC "any"` is one argument to PostgreSQL, as stored.
  const direct = Number(s.args?.[1]?.Integer?.ival ?? -1);
  const variadic = (p: Node | undefined): string | undefined =>
    p?.mode === 'FUNC_PARAM_VARIADIC' ? JSON.stringify(strings(p.argType.names)) : undefined;
  const merged =
    direct >= 1 &&
    params.length === direct + 1 &&
    variadic(params[direct - 1]) !== undefined &&
    variadic(params[direct - 1]) === variadic(params[direct]);
  const typed = merged ? params.slice(0, direct) : params;
  const name = `${listName(strings(s.defnames), defaultSchema)}(${argTypes({ objargs: typed.map((p) => p.argType) })})`;
  const deps = new Set<string>();
  const typeName = (t: Node): string | undefined => {
    const names = strings(t?.names);
    return names.length > 0 && names[0] !== 'pg_catalog' ? listName(names, defaultSchema) : undefined;
  };
  for (const p of params) {
    const t = typeName(p.argType);
    if (t) deps.add(typeRef(t));
  }
  for (const d of (s.definition ?? []).map((x: Node) => x.DefElem)) {
    const n = typeName(d?.arg?.TypeName);
    if (!n) continue;
    if (FUNCTION_OPTIONS.has(d.defname)) deps.add(routineRef(n));
    else if (TYPE_OPTIONS.has(d.defname)) deps.add(typeRef(n));
  }
  return { name, deps: [...deps] };
}

/** A CREATE … (DefineStmt) in a sql: file: an aggregate or operator object, or why it is not managed. */
/** The names a DefineStmt's options `keys` give (TypeName lists), but PostgreSQL's own. */
function defNames(s: Node, keys: readonly string[]): string[][] {
  return (s.definition ?? [])
    .map((d: Node) => d.DefElem)
    .filter((d: Node) => keys.includes(String(d?.defname)) && d.arg?.TypeName)
    .map((d: Node) => strings(d.arg.TypeName.names))
    .filter(
      (n: string[]) => n.length > 0 && n[0] !== 'pg_catalog' && !(n.length === 1 && BUILTIN_TEXT_SEARCH.test(n[0]!)),
    );
}

export function defineObject(
  s: Node,
  defaultSchema: string,
  argTypes: (objectWithArgs: Node) => string,
):
  | {
      kind:
        | 'shell type'
        | 'base type'
        | 'aggregate'
        | 'operator'
        | 'collation'
        | 'text search parser'
        | 'text search template'
        | 'text search dictionary'
        | 'text search configuration';
      name: string;
      deps: readonly string[];
    }
  | string {
  if (s.kind === 'OBJECT_OPERATOR') {
    const o = operatorDecl(s, defaultSchema);
    return typeof o === 'string' ? o : { kind: 'operator', name: o.name, deps: o.deps };
  }
  // CREATE COLLATION name (provider = …, locale = …) or FROM another: the catalog's form is pg_dump's.
  if (s.kind === 'OBJECT_COLLATION')
    return { kind: 'collation', name: listName(strings(s.defnames), defaultSchema), deps: [] };
  // CREATE TEXT SEARCH PARSER / TEMPLATE (their functions), DICTIONARY (TEMPLATE = …) and
  // CONFIGURATION (PARSER = … or COPY = …; its mappings follow): after the parser or template the files make.
  if (s.kind === 'OBJECT_TSPARSER' || s.kind === 'OBJECT_TSTEMPLATE')
    return {
      kind: s.kind === 'OBJECT_TSPARSER' ? 'text search parser' : 'text search template',
      name: listName(strings(s.defnames), defaultSchema),
      deps: defNames(s, ['start', 'gettoken', 'end', 'lextypes', 'headline', 'init', 'lexize']).map((n) =>
        routineRef(listName(n, defaultSchema)),
      ),
    };
  if (s.kind === 'OBJECT_TSDICTIONARY')
    return {
      kind: 'text search dictionary',
      name: listName(strings(s.defnames), defaultSchema),
      deps: defNames(s, ['template']).map((n) => `text search template ${listName(n, defaultSchema)}`),
    };
  if (s.kind === 'OBJECT_TSCONFIGURATION') {
    const copy = (s.definition ?? []).find((d: Node) => d.DefElem?.defname === 'copy')?.DefElem.arg?.TypeName;
    const from = copy ? strings(copy.names) : [];
    return {
      kind: 'text search configuration',
      name: listName(strings(s.defnames), defaultSchema),
      // (a copy of pg_catalog's english needs nothing the plan makes; a copy of the user's, that one)
      deps: [
        ...(from.length > 0 ? [`text search configuration ${listName(from, defaultSchema)}`] : []),
        ...defNames(s, ['parser']).map((n) => `text search parser ${listName(n, defaultSchema)}`),
      ],
    };
  }
  if (s.kind === 'OBJECT_TYPE') return baseTypeObject(s, defaultSchema);
  if (s.kind !== 'OBJECT_AGGREGATE') return 'Define statements are not managed in SQL files';
  const a = aggregateDecl(s, defaultSchema, argTypes);
  return typeof a === 'string' ? a : { kind: 'aggregate', name: a.name, deps: a.deps };
}
