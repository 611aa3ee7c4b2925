// How shard placements and their tables are keyed, read (introspect/read-shards.ts) and compared
// (plan/diff/shard-check.ts) alike.

/** The key a placement's table is found under. */
export const tableKey = (t: readonly [string, string]): string => JSON.stringify(t);
/** The key of one placement (a shard on a node group). */
export const placementKey = (p: { readonly shardId: string | number; readonly group: number }): string =>
  `${p.shardId}@${p.group}`;
