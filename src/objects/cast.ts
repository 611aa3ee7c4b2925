// CREATE CAST in sql: files. A cast is named as DROP CAST and the catalog name it, by its source
// and target types as format_type prints them with search_path = public (a type of public
// unqualified, one of another schema qualified, PostgreSQL's own by their SQL names): `(money2
// AS numeric)`. It needs its function and its user types. Citus does not propagate casts: a
// delegated routine that uses one fails on the worker without it (docs/citus-facts.md), so the
// plan makes each on the workers too (plan/steps/objects-spec.ts).
import { isBuiltinType, strings, typeFromNode, type Node } from '../sql/pg-parse.js';
import { listName } from './statement-parts.js';
import { castTypeName } from './cast-name.js';
import { routineRef, typeRef } from '../model/object-ref.js';
import type { Classified } from './alter-table.js';

/** The cast a CreateCastStmt declares. */
export function castObject(s: Node, defaultSchema: string): Classified {
  const deps = new Set<string>();
  if (s.func?.objname) deps.add(routineRef(listName(strings(s.func.objname), defaultSchema)));
  for (const tn of [s.sourcetype, s.targettype]) {
    const n = strings(tn?.names);
    if (n[0] !== 'pg_catalog' && !isBuiltinType(typeFromNode(tn).base)) deps.add(typeRef(listName(n, defaultSchema)));
  }
  return {
    kind: 'cast',
    name: `(${castTypeName(s.sourcetype, defaultSchema)} AS ${castTypeName(s.targettype, defaultSchema)})`,
    deps: [...deps],
  };
}
