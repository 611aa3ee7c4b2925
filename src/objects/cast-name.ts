// How a cast is named: by its two types as the catalog query prints them (format_type with
// search_path = public), so that a cast of a sql: file and the cluster's have the same id.
import { isBuiltinType, strings, typeFromNode, type Node } from '../sql/pg-parse.js';
import { quoteIdent } from '../sql/quote.js';

/** A type of a cast as the catalog names it (search_path = public). */
export function castTypeName(tn: Node, defaultSchema: string): string {
  const names = strings(tn.names);
  const base = typeFromNode(tn).base;
  // An unqualified name that is not PostgreSQL's own is the manifest's default schema's.
  const qualified = names.length === 1 && !isBuiltinType(base) ? `${quoteIdent(defaultSchema)}.${base}` : base;
  return qualified.replace(/^public\./, '');
}
