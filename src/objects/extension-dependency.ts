// `ALTER FUNCTION | PROCEDURE | INDEX | MATERIALIZED VIEW … DEPENDS ON EXTENSION e` in a sql:
// file: an object of its own, `extension dependency of function app.f(integer) on citext`, as
// the catalog reads it back (introspect/catalog-extension-dependencies.ts): the object goes when
// the extension is dropped. Set after the object and the extension, taken away in place (`NO
// DEPENDS ON EXTENSION`). A trigger's is part of the trigger (more-objects.ts).
import type { Node } from '../sql/pg-parse.js';
import { quoteIdent } from '../sql/quote.js';
import { indexRef, relationRef } from '../model/object-ref.js';
import type { Classified } from './alter-table.js';
import { relName } from './statement-parts.js';
import { commentTarget } from './comment-target.js';

const KEYWORDS: Readonly<Record<string, string>> = {
  OBJECT_FUNCTION: 'FUNCTION',
  OBJECT_PROCEDURE: 'PROCEDURE',
  OBJECT_ROUTINE: 'FUNCTION',
  OBJECT_INDEX: 'INDEX',
  OBJECT_MATVIEW: 'MATERIALIZED VIEW',
};

/** The object an AlterObjectDependsStmt (not a trigger's) declares, or why it is refused. */
export function extensionDependency(
  s: Node,
  defaultSchema: string,
  argTypes: (n: Node) => string,
): Classified | string {
  const keyword = KEYWORDS[s.objectType];
  if (!keyword)
    return `ALTER ${String(s.objectType).replace(/^OBJECT_/, '')} … DEPENDS ON EXTENSION is not managed here`;
  if (s.remove) return 'NO DEPENDS ON EXTENSION: leave the DEPENDS ON EXTENSION statement out instead';
  const extension = quoteIdent(s.extname?.sval ?? s.extname?.String?.sval ?? '');
  let target: string;
  let parent: string;
  if (keyword === 'INDEX' || keyword === 'MATERIALIZED VIEW') {
    target = relName(s.relation, defaultSchema);
    parent = keyword === 'INDEX' ? indexRef(target) : relationRef(target);
  } else {
    const t = commentTarget({ objtype: 'OBJECT_FUNCTION', object: s.object }, defaultSchema, argTypes);
    if (typeof t === 'string') return t;
    target = t.target;
    parent = t.parent!;
  }
  // The function's or procedure's keyword does not name it: one class, "routine".
  const cls = keyword === 'FUNCTION' || keyword === 'PROCEDURE' ? 'routine' : keyword.toLowerCase();
  return {
    kind: 'extension dependency',
    name: `of ${cls} ${target} on ${extension}`,
    parent,
    deps: [],
    needs: [`extension ${extension}`],
    statement: `ALTER ${keyword} ${target} DEPENDS ON EXTENSION ${extension}`,
  };
}
