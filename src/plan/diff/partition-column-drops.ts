// What takes a partition's own column default or COMPRESSION away: setting the column back to
// what its parent will have once the plan has run, not what the parent had when the catalog was
// read (its DROP statements say that). The plan changes the parent's column first, and that
// change reaches the partitions (SET DEFAULT and SET COMPRESSION recurse), so a partition's own
// setting dropped after it must not put the parent's former one back. Pure.
import { partitionQname, type ClusterModel, type SqlObject } from '../../model/types.js';
import { quoteIdent, quoteQualified } from '../../sql/quote.js';

/** The statements that drop `a`, a partition's column default or compression; `a.drop` for anything else. */
export function partitionColumnDrop(a: SqlObject, desired: ClusterModel): readonly string[] | undefined {
  if (a.kind !== 'column default' && a.kind !== 'column compression') return a.drop;
  if (!a.name.startsWith(`${a.parent?.slice('relation '.length)}.`) || a.drop?.length !== 1) return a.drop;
  const partition = a.parent!.slice('relation '.length);
  for (const t of Object.values(desired.tables)) {
    const p = (t.partitions ?? []).find((x) => quoteQualified(partitionQname(t, x)) === partition);
    if (!p) continue;
    const columnName = a.name.slice(partition.length + 1);
    const column = (t.columns ?? []).find((c) => quoteIdent(c.name) === columnName);
    if (!column) return a.drop;
    // A parent partition's own setting of the column, where the partition is under one.
    const of = p.of !== undefined ? desired.objects[`${a.kind} ${quoteQualified(p.of)}.${columnName}`] : undefined;
    const head = a.drop[0]!.replace(/ (SET|DROP) (DEFAULT|COMPRESSION)\b.*$/s, '');
    if (of)
      return [
        `${head}${of.create[0]!.slice(of.create[0]!.lastIndexOf(` ALTER COLUMN ${columnName} `) + ` ALTER COLUMN ${columnName}`.length)}`,
      ];
    if (a.kind === 'column compression') return [`${head} SET COMPRESSION ${column.compression ?? 'default'}`];
    return [`${head}${column.default !== undefined ? ` SET DEFAULT ${column.default}` : ' DROP DEFAULT'}`];
  }
  return a.drop;
}
