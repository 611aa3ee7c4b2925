// A typed table's `of_type` (CREATE TABLE … OF type): the composite type, qualified with the
// manifest's default schema when the name has none. PostgreSQL refuses a typed table that
// inherits. That its columns are the type's attributes is checked against the type's declaration
// in the sql: files (plan/checks/typed-table-problems.ts).
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { ManifestTable } from './schema.js';
import { quoteQualified } from '../sql/quote.js';
import { qualifiedKey } from './resolve-context.js';

/** `{ ofType }` for a table declared with `of_type`, else nothing. */
export function typedTable(
  t: ManifestTable,
  path: Path,
  defaultSchema: string,
  problems: ProblemList,
): { ofType?: string } {
  if (t.of_type === undefined) return {};
  const q = qualifiedKey(t.of_type, defaultSchema, [...path, 'of_type'], problems, 'type');
  if (!q) return {};
  if (t.inherits !== undefined)
    problems.error(
      [...path, 'of_type'],
      'typed_table_inherits',
      'a typed table cannot inherit (PostgreSQL: "typed tables cannot inherit"): declare of_type or inherits, not both',
    );
  return { ofType: quoteQualified(q) };
}
