// Which sequence is a serial column's own: the one CREATE TABLE makes for it, named
// <table>_<column>_seq in the table's schema and owned by the column.
import { quoteLiteral, quoteQualified, type QualifiedName } from '../sql/quote.js';
import { idOf, type ClusterModel, type Sequence, type Table } from './types.js';

/** The name PostgreSQL gives a serial column's sequence (as the manifest resolves it). */
export const serialSequenceName = (table: QualifiedName, column: string): QualifiedName => ({
  schema: table.schema,
  name: `${table.name}_${column}_seq`,
});

/**
 * The default a child has from its parent's serial column (INHERITS): one spelling on both sides
 * (the manifest's, and the catalog's when the child's default is its parent's), so they compare.
 */
export const inheritedSerialDefault = (parent: QualifiedName, column: string): string =>
  `nextval(${quoteLiteral(quoteQualified(serialSequenceName(parent, column)))}::regclass)`;

/** Whether `s` is the own sequence of a serial column of `m` (its table makes it). */
export function isSerialsOwn(s: Sequence, m: ClusterModel): boolean {
  const o = s.ownedBy;
  const t: Table | undefined = o ? m.tables[o.table] : undefined;
  if (!o || !t?.columns?.find((c) => c.name === o.column)?.type.serial) return false;
  return idOf(serialSequenceName(t.qname, o.column)) === s.id;
}
