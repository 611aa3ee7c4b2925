// A column that uses one of the user's own collations (CREATE COLLATION app.nocase …) needs it to
// exist before its step runs, or PostgreSQL refuses the step (`collation "app.nocase" for encoding
// … does not exist`): the cluster has it, or the manifest's sql: files declare it.
import { quoteIdent, quoteQualified } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { collationRef, tableRef } from '../../model/object-ref.js';
import type { ClusterModel } from '../../model/types.js';

/** A problem for each column a step gives a collation of the user's that neither the cluster has nor the manifest declares. */
export function missingCollationProblems(steps: readonly Step[], existing: ReadonlySet<string>): DiffProblem[] {
  const problems: DiffProblem[] = [];
  const seen = new Set<string>();
  const check = (table: string, column: string, name: string | undefined, schema: string | undefined): void => {
    if (name === undefined || schema === undefined) return;
    const collation = quoteQualified({ schema, name });
    if (existing.has(collation) || seen.has(`${table}.${column}`)) return;
    seen.add(`${table}.${column}`);
    problems.push({
      code: 'collation_missing',
      object: tableRef(table),
      message: `column ${quoteIdent(column)} uses collation ${collation}, which the cluster does not have and the manifest does not declare: add CREATE COLLATION ${collation} (…) to its sql: files`,
    });
  };
  for (const s of steps) {
    if (s.kind === 'create_table')
      for (const c of s.columns) check(quoteQualified(s.table), c.name, c.collation, c.collationSchema);
    if (s.kind === 'add_column')
      check(quoteQualified(s.table), s.column.name, s.column.collation, s.column.collationSchema);
    if (s.kind === 'alter_column_type') check(quoteQualified(s.table), s.column, s.collation, s.collationSchema);
  }
  return problems;
}

/**
 * A problem for each collation the plan drops (to create it again, or pruned) while a column of
 * the cluster that the plan keeps still uses it: PostgreSQL refuses DROP COLLATION then.
 */
export function collationInUseProblems(steps: readonly Step[], actual: ClusterModel): DiffProblem[] {
  const dropped = new Set(
    steps.flatMap((s) =>
      s.kind === 'drop_object' && s.objectKind === 'collation' ? [s.object.slice('collation '.length)] : [],
    ),
  );
  if (dropped.size === 0) return [];
  const droppedTables = new Set(steps.flatMap((s) => (s.kind === 'drop_table' ? [quoteQualified(s.table)] : [])));
  const problems: DiffProblem[] = [];
  for (const t of Object.values(actual.tables)) {
    if (droppedTables.has(t.id)) continue;
    for (const c of t.columns ?? []) {
      if (c.collation === undefined || c.collationSchema === undefined) continue;
      const name = quoteQualified({ schema: c.collationSchema, name: c.collation });
      if (!dropped.has(name)) continue;
      problems.push({
        code: 'collation_in_use',
        object: collationRef(name),
        message: `column ${quoteIdent(c.name)} of ${t.id} uses it: PostgreSQL cannot drop a collation a column uses, so the plan cannot change or drop it; give the column another collation in one apply, then change the collation in the next`,
      });
    }
  }
  return problems;
}
