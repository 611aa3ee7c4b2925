// Which views and policies a column change reaches: those that read the column, not every one
// on the table (PostgreSQL records the columns a view's rule or a policy reads in pg_depend).
import type { SqlObject } from '../../model/types.js';
import { columnRefPrefix, refId, rowRef } from '../../model/object-ref.js';

/**
 * Whether an object that depends on a relation whose columns change reads one of them: the
 * catalog names the columns a view or policy reads ("column app.t.x") and "row app.t" for a
 * whole-row reference. A view without either (a catalog document from before they were read) is
 * assumed to read them.
 */
export function readsChanged(a: SqlObject, relation: string, changed: ReadonlySet<string> | undefined): boolean {
  const rel = refId(relation, 'relation') ?? relation;
  const row = rowRef(rel);
  const columnOf = columnRefPrefix(rel);
  const known = a.deps.filter((x) => x.startsWith(columnOf) || x === row);
  // A policy that reads no column of its table (USING (true)) has only its table as a dependency.
  if (known.length === 0 && a.kind === 'policy') return false;
  if (known.length === 0 || changed === undefined) return true;
  return known.some((x) => x === row || changed.has(x));
}
