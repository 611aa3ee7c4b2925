// A typed table (CREATE TABLE … OF type) of an existing table: ALTER TABLE … OF when the manifest
// makes it typed (its columns must then be the type's attributes: checks/typed-table-problems.ts),
// NOT OF when it no longer is. PostgreSQL refuses to add, drop or retype a typed table's column:
// the table is made untyped for the column steps and typed again after them, in the transaction.
// Citus refuses ALTER TABLE … OF and NOT OF on its tables: a plan problem there.
import type { Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** Column steps PostgreSQL refuses on a typed table ("cannot add column to typed table"…). */
const UNTYPED_ONLY: ReadonlySet<string> = new Set(['add_column', 'drop_column', 'alter_column_type']);

/** The OF / NOT OF steps to run before and after the table's column steps. */
export function typedTableSteps(
  t: Table,
  a: Table,
  columnSteps: readonly Step[],
  problems: DiffProblem[],
): { before: Step[]; after: Step[] } {
  const reshaped = a.ofType !== undefined && columnSteps.some((s) => UNTYPED_ONLY.has(s.kind));
  if (t.ofType === a.ofType && !reshaped) return { before: [], after: [] };
  if (a.distribution.kind !== 'local') {
    problems.push({
      code: 'citus_typed_table',
      object: t.id,
      message: reshaped
        ? `is a typed table (of ${a.ofType}) and the plan changes its columns, which PostgreSQL allows only once it is NOT OF its type, and Citus refuses ALTER TABLE … OF and NOT OF on its tables: change its type with ALTER TYPE … ADD / DROP / ALTER ATTRIBUTE … CASCADE by hand, or keep its columns`
        : `would become ${t.ofType !== undefined ? `a typed table of ${t.ofType}` : 'untyped'}, and Citus refuses ALTER TABLE … OF and NOT OF on its tables (it allows them on a table before it distributes it): keep it ${a.ofType !== undefined ? `of ${a.ofType}` : 'untyped'}`,
    });
    return { before: [], after: [] };
  }
  const before: Step[] = a.ofType !== undefined ? [{ kind: 'alter_table_of', table: t.qname }] : [];
  const after: Step[] = t.ofType !== undefined ? [{ kind: 'alter_table_of', table: t.qname, ofType: t.ofType }] : [];
  return { before, after };
}
