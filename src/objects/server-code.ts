// Objects of the sql: files built on the server's code: access methods, foreign data wrappers,
// procedural languages, transforms and event triggers (introspect/catalog-server-code.ts reads
// them back). Each needs the functions it names (a handler, a validator, a transform's functions,
// an event trigger's function), written as the catalog prints them: PostgreSQL's own and
// public's unqualified, any other schema's qualified (objects/key.ts compares pg_catalog.f and
// public.f as f). An event trigger's ALTER EVENT TRIGGER … ENABLE / DISABLE is part of it.
import { strings, type Node } from '../sql/pg-parse.js';
import { quoteIdent } from '../sql/quote.js';
import { routineRef, typeRef } from '../model/object-ref.js';
import { isBuiltinType, typeFromNode } from '../sql/pg-parse.js';
import type { Classified } from './alter-table.js';
import { castTypeName } from './cast-name.js';
import { listName } from './statement-parts.js';

/** The statement tags read here. */
export type ServerCodeTag =
  | 'CreateAmStmt'
  | 'CreateFdwStmt'
  | 'CreatePLangStmt'
  | 'CreateTransformStmt'
  | 'CreateEventTrigStmt'
  | 'AlterEventTrigStmt';

const TAGS: ReadonlySet<string> = new Set<ServerCodeTag>([
  'CreateAmStmt',
  'CreateFdwStmt',
  'CreatePLangStmt',
  'CreateTransformStmt',
  'CreateEventTrigStmt',
  'AlterEventTrigStmt',
]);
/** Whether a statement's tag is one read here. */
export const isServerCodeTag = (tag: string): tag is ServerCodeTag => TAGS.has(tag);

/** The routine a function name (a list of String nodes) needs, unless it is PostgreSQL's own. */
const needsRoutine = (names: Node[] | undefined, defaultSchema: string): string[] => {
  const n = strings(names);
  return n.length === 0 || n[0] === 'pg_catalog' ? [] : [routineRef(listName(n, defaultSchema))];
};

/** An object's id as other objects' deps name it: `language plperl`, `foreign data wrapper w`. */
export const serverCodeRef = (kind: 'language' | 'access method' | 'foreign data wrapper', name: string): string =>
  `${kind} ${quoteIdent(name)}`;

/** The name of the transform a CreateTransformStmt (or COMMENT ON TRANSFORM) declares: `for integer language plperl`. */
export const transformName = (type: Node, lang: string, defaultSchema: string): string =>
  `for ${castTypeName(type, defaultSchema)} language ${quoteIdent(lang)}`;

/** The object a statement of ServerCodeTag declares. */
export function serverCodeObject(tag: ServerCodeTag, s: Node, defaultSchema: string): Classified {
  switch (tag) {
    case 'CreateAmStmt':
      return { kind: 'access method', name: quoteIdent(s.amname), deps: needsRoutine(s.handler_name, defaultSchema) };
    case 'CreateFdwStmt':
      return {
        kind: 'foreign data wrapper',
        name: quoteIdent(s.fdwname),
        deps: (s.func_options ?? []).flatMap((d: Node) => needsRoutine(d.DefElem?.arg?.List?.items, defaultSchema)),
      };
    case 'CreatePLangStmt':
      return {
        kind: 'language',
        name: quoteIdent(s.plname),
        deps: [s.plhandler, s.plinline, s.plvalidator].flatMap((f) => needsRoutine(f, defaultSchema)),
      };
    case 'CreateTransformStmt': {
      const n = strings(s.type_name.names);
      const type =
        n[0] !== 'pg_catalog' && !isBuiltinType(typeFromNode(s.type_name).base)
          ? [typeRef(listName(n, defaultSchema))]
          : [];
      return {
        kind: 'transform',
        name: transformName(s.type_name, s.lang, defaultSchema),
        deps: [
          ...type,
          serverCodeRef('language', s.lang),
          ...[s.fromsql, s.tosql].flatMap((f) => needsRoutine(f?.objname, defaultSchema)),
        ],
      };
    }
    case 'CreateEventTrigStmt':
      return { kind: 'event trigger', name: quoteIdent(s.trigname), deps: needsRoutine(s.funcname, defaultSchema) };
    case 'AlterEventTrigStmt':
      return { kind: 'event trigger', name: quoteIdent(s.trigname), amends: true, deps: [] };
  }
}
