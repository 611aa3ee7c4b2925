// CREATE OPERATOR in sql: files (issue #23: real schemas define them; icingadb's ~~ on
// anynonarray). An operator is named as DROP OPERATOR and the catalog name it, by schema, symbol
// and argument types ("public.~~(anynonarray, text)", NONE for a prefix operator's left side), and
// needs its function and its argument types. Its COMMUTATOR and NEGATOR are not dependencies:
// PostgreSQL makes a shell for one that does not exist yet and fills it in when it is created.
import { strings, type Node } from '../sql/pg-parse.js';
import { listName } from './statement-parts.js';
import { operatorName } from './comment-target.js';
import { routineRef, typeRef } from '../model/object-ref.js';

export interface OperatorDecl {
  readonly name: string;
  readonly deps: readonly string[];
}

/** The operator a DefineStmt (kind OBJECT_OPERATOR) declares, or why it is not managed. */
export function operatorDecl(s: Node, defaultSchema: string): OperatorDecl | string {
  const names = strings(s.defnames);
  const symbol = names[names.length - 1]!;
  const schema = names.length > 1 ? names[0]! : defaultSchema;
  const opt = new Map<string, Node>(
    (s.definition ?? []).map((x: Node) => [String(x.DefElem?.defname).toLowerCase(), x.DefElem?.arg]),
  );
  const fn = opt.get('function') ?? opt.get('procedure');
  const right = opt.get('rightarg');
  if (!fn?.TypeName) return 'CREATE OPERATOR needs FUNCTION = …';
  if (!right?.TypeName) return 'postfix operators (no RIGHTARG) do not exist since PostgreSQL 14';
  const left = opt.get('leftarg');
  const deps = new Set<string>([routineRef(listName(strings(fn.TypeName.names), defaultSchema))]);
  for (const t of [left, right]) {
    const n = strings(t?.TypeName?.names);
    if (n.length > 0 && n[0] !== 'pg_catalog' && n.length > 1) deps.add(typeRef(listName(n, defaultSchema)));
  }
  return { name: operatorName(schema, symbol, left, right), deps: [...deps] };
}
