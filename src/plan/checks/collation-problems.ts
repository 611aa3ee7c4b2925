// citus-migrate does not create collations (they are named as not managed): a column that uses
// one of the user's own (CREATE COLLATION app.nocase …) needs it to exist before the plan runs,
// or PostgreSQL refuses the step (`collation "app.nocase" for encoding … does not exist`).
import { quoteIdent, quoteQualified } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';
import { tableRef } from '../../model/object-ref.js';

/** A problem for each column a step gives a collation of the user's that the cluster does not have. */
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
      message: `column ${quoteIdent(column)} uses collation ${collation}, which the cluster does not have and citus-migrate does not create: CREATE COLLATION ${collation} … first`,
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
