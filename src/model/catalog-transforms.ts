// What the catalog document makes of the query's answer beyond its rows as they come: key
// columns named, and keys that hold null read as absent. Shared by the tool's reading of the answer
// (catalog-doc.ts) and the tests' oracle (catalog-schema.ts).

/**
 * Drops `key` when it is null: read as absent (not as a key holding undefined), so documents
 * recorded before it was read (scenario fixtures) equal new ones and every document stays JSON.
 */
export const absentWhenNull =
  <K extends string>(key: K) =>
  <T extends { [k in K]?: unknown }>(o: T): T => {
    if (o[key] === null) delete o[key];
    return o;
  };

/**
 * The query gives a table's key and index columns as attribute numbers (looking names up in SQL
 * costs ~15 µs per constraint on a cold cache): named here from the table's own columns, as
 * pg_attribute would (an expression's 0 has no name and is left out; none at all is null). The
 * columns themselves come in any order: put in attnum order.
 */
export function columnNumbersToNames<
  T extends {
    columns: { num: number }[];
    constraints: { columns: number[] | null; include?: number[] | null | undefined }[];
    indexes: { columns: number[] | null }[];
  },
>(t: T) {
  const names = new Map(t.columns.map((c) => [c.num, (c as unknown as { name: string }).name]));
  const named = (nums: number[] | null): string[] | null => {
    const out = (nums ?? []).flatMap((n) => names.get(n) ?? []);
    return out.length > 0 ? out : null; // json_agg over no rows is NULL
  };
  return {
    ...t,
    // In attnum order, the table's own (the query gives them in any).
    columns: [...t.columns].sort((a, b) => a.num - b.num).map(({ num: _num, ...c }) => c),
    constraints: t.constraints.map((c) => ({
      ...c,
      columns: named(c.columns),
      ...(c.include ? { include: named(c.include) } : {}),
    })),
    indexes: t.indexes.map((i) => ({ ...i, columns: named(i.columns) })),
  } as Omit<T, 'columns' | 'constraints' | 'indexes'> & {
    columns: Omit<T['columns'][number], 'num'>[];
    constraints: (Omit<T['constraints'][number], 'columns' | 'include'> & {
      columns: string[] | null;
      include?: string[] | null;
    })[];
    indexes: (Omit<T['indexes'][number], 'columns'> & { columns: string[] | null })[];
  };
}
