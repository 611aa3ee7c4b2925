// Small rules of a declared table, used while resolving tables.
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestTable } from './schema.js';

/** What a table is declared as (more than one is a problem). */
export function kindsOf(t: ManifestTable): string[] {
  const kinds: string[] = [];
  if (t.distributed_by !== undefined) kinds.push('distributed (distributed_by)');
  if (t.reference) kinds.push('reference');
  if (t.local) kinds.push('local');
  if (t.single_shard) kinds.push('single_shard');
  return kinds;
}

/** Columns a key or index names must be columns of the table (when it declares its columns). */
export function checkColumnsExist(
  cols: readonly string[],
  known: ReadonlySet<string> | undefined,
  path: Path,
  problems: ProblemList,
): void {
  if (!known) return;
  cols.forEach((c, i) => {
    if (!known.has(c))
      problems.error([...path, i], 'unknown_column', `column ${JSON.stringify(c)} is not a column of this table`);
  });
}
