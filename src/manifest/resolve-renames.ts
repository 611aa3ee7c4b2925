// What `renamed_from` may say (the plan renames; plan/diff/renames.ts): a column's former name is not
// one of the table's declared columns (that would be two columns of one), and an index renamed is
// one with a name of its own.
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { Manifest } from './schema.js';

type ManifestTable = Manifest['tables'][string];

export function renameProblems(
  t: ManifestTable,
  known: ReadonlySet<string> | undefined,
  path: Path,
  problems: ProblemList,
): void {
  for (const [name, spec] of Object.entries(t.columns ?? {})) {
    const from = typeof spec === 'object' && spec !== null ? spec.renamed_from : undefined;
    if (from === undefined) continue;
    if (from === name || known?.has(from))
      problems.error(
        [...path, 'columns', name, 'renamed_from'],
        'rename_conflict',
        `renamed_from: ${from} names a column this table declares too: a column is renamed into a free name only`,
      );
  }
  (t.indexes ?? []).forEach((ix, i) => {
    if (ix.renamed_from !== undefined && ix.name === undefined)
      problems.error(
        [...path, 'indexes', i, 'renamed_from'],
        'rename_needs_name',
        "renamed_from needs the index's new name: name: <new name>",
      );
  });
}
