// Base types (CREATE TYPE t (INPUT = t_in, OUTPUT = t_out, …)) and shell types (CREATE TYPE t;).
// A base type and its input and output functions need each other: the functions take or return
// the type, the type names the functions. pg_dump breaks the cycle with the shell first; so does
// the plan (plan/diff/objects.ts makes a created base type's shell a step of its own, before the
// functions in C or internal code that name it, plan/steps/step-names.ts). A file may write the
// shell as pg_dump does or leave it out: a shell beside its base type is part of it. A lone shell
// (no base type of its name) is an object of its own. Pure.
import { strings, type Node } from '../sql/pg-parse.js';
import type { SqlObject } from '../model/types.js';
import { routineRef, typeRef } from '../model/object-ref.js';
import { isBuiltinType, typeFromNode } from '../sql/pg-parse.js';
import { listName } from './statement-parts.js';

/** The id of the shell a base type is made from, as a step provides it: `shell type app.t`. */
export const shellOf = (typeName: string): string => `shell type ${typeName}`;

/** The options of CREATE TYPE that name a function. */
export const BASE_TYPE_FUNCTIONS = [
  'input',
  'output',
  'receive',
  'send',
  'typmod_in',
  'typmod_out',
  'analyze',
  'subscript',
];

/** The object a CREATE TYPE name [(…)] DefineStmt declares. */
export function baseTypeObject(
  s: Node,
  defaultSchema: string,
): { kind: 'shell type' | 'base type'; name: string; deps: string[] } {
  const name = listName(strings(s.defnames), defaultSchema);
  if (!s.definition) return { kind: 'shell type', name, deps: [] };
  const deps = [shellOf(name)];
  for (const d of (s.definition as Node[]).map((x) => x.DefElem)) {
    const tn = d?.arg?.TypeName;
    if (!tn) continue;
    const n = strings(tn.names);
    if (n.length === 0 || n[0] === 'pg_catalog') continue;
    if (BASE_TYPE_FUNCTIONS.includes(String(d.defname))) deps.push(routineRef(listName(n, defaultSchema)));
    else if (!isBuiltinType(typeFromNode(tn).base)) deps.push(typeRef(listName(n, defaultSchema)));
  }
  return { kind: 'base type', name, deps };
}

/** Drops the shells the files write beside their base types (pg_dump's `CREATE TYPE t;`). */
export function withoutBaseTypeShells(objects: Record<string, SqlObject>): void {
  for (const o of Object.values(objects))
    if (o.kind === 'base type' && objects[shellOf(o.name)]) delete objects[shellOf(o.name)];
}
