// A typed table (`of_type`) whose columns are not its composite type's attributes, by name and
// type, in order: PostgreSQL refuses ALTER TABLE … OF then ("table has column "y" where type
// requires "x""). Checked against the type's CREATE TYPE … AS (…) in the sql: files, when the
// manifest declares it (one made elsewhere is PostgreSQL's to check at apply). Pure.
import type { ClusterModel } from '../../model/types.js';
import { tableRef } from '../../model/object-ref.js';
import { tryParseStatements, typeFromNode, type Node } from '../../sql/pg-parse.js';
import type { DiffProblem } from '../problem.js';

/** name type, … of a composite type's statement; undefined when it does not parse as one. */
function attributes(create: string): string[] | undefined {
  const s = tryParseStatements(create)?.[0]?.stmt?.CompositeTypeStmt;
  if (!s) return undefined;
  return (s.coldeflist ?? []).map((d: Node) => `${d.ColumnDef.colname} ${typeFromNode(d.ColumnDef.typeName).sql}`);
}

export function typedTableProblems(desired: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  for (const t of Object.values(desired.tables)) {
    if (t.ofType === undefined || !t.columns) continue;
    const type = desired.objects[`composite type ${t.ofType}`];
    const want = type && attributes(type.create[0] ?? '');
    if (!want) continue;
    const have = t.columns.map((c) => `${c.name} ${c.type.sql}`);
    if (have.join(', ') === want.join(', ')) continue;
    problems.push({
      code: 'typed_table_columns',
      object: tableRef(t.qname),
      message: `is declared of_type ${t.ofType}${type.source ? ` (${type.source})` : ''}, and its columns (${have.join(', ')}) are not the type's attributes (${want.join(', ')}): PostgreSQL makes a typed table only of the same names and types, in the same order`,
    });
  }
  return problems;
}
