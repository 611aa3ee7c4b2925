// The columns the manifest names on a table it declares without columns (created elsewhere):
// each must be one of the cluster's.
import type { Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';

/**
 * A table declared without columns is described by the cluster: every column the manifest
 * names on it (distribution column, keys, indexes, foreign keys) must be one of its columns.
 */
export function referencedColumnProblems(t: Table, a: Table): DiffProblem[] {
  const have = new Set((a.columns ?? []).map((c) => c.name));
  const named: [string, readonly string[]][] = [
    ['distributed_by', t.distribution.kind === 'hash' ? [t.distribution.column] : []],
    ['primary_key', t.primaryKey?.columns ?? []],
    ...t.unique.map((u, i): [string, readonly string[]] => [`unique[${i}]`, u.columns]),
    ...t.indexes.map((ix, i): [string, readonly string[]] => [`indexes[${i}]`, ix.columns]),
    ...t.foreignKeys.map((fk, i): [string, readonly string[]] => [`foreign_keys[${i}]`, fk.columns]),
  ];
  const problems: DiffProblem[] = [];
  for (const [where, cols] of named) {
    for (const c of cols) {
      if (have.has(c)) continue;
      problems.push({
        code: 'unknown_column',
        object: t.id,
        message: `${where}: has no column ${JSON.stringify(c)} in the cluster (its columns: ${[...have].join(', ') || 'none'})`,
      });
    }
  }
  return problems;
}
