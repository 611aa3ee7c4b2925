// CREATE TYPE … AS RANGE in sql: files: a type object (with the multirange type PostgreSQL makes
// beside it) that needs its subtype when it is a user's, and its functions (CANONICAL,
// SUBTYPE_DIFF). The catalog prints it with the options that differ from PostgreSQL's defaults
// (introspect/catalog-range-types.ts), as the file may write them.
import { strings, typeFromNode, isBuiltinType, type Node } from '../sql/pg-parse.js';
import { routineRef, typeRef } from '../model/object-ref.js';
import type { Classified } from './alter-table.js';
import { listName } from './statement-parts.js';

/** The range type a CreateRangeStmt declares. */
export function rangeType(s: Node, defaultSchema: string): Classified {
  const deps = new Set<string>();
  for (const p of s.params ?? []) {
    const d = p.DefElem;
    const tn = d?.arg?.TypeName;
    if (!tn) continue;
    const names = strings(tn.names);
    if (d.defname === 'subtype' && names[0] !== 'pg_catalog' && !isBuiltinType(typeFromNode(tn).base))
      deps.add(typeRef(listName(names, defaultSchema)));
    if (d.defname === 'canonical' || d.defname === 'subtype_diff') {
      // A function of pg_catalog's (float8mi) is PostgreSQL's own: nothing to make first.
      if (names[0] !== 'pg_catalog') deps.add(routineRef(listName(names, defaultSchema)));
    }
  }
  return { kind: 'range type', name: listName(strings(s.typeName), defaultSchema), deps: [...deps] };
}
