// A colocation group's shard count raised online: each shard split where the larger even split
// of the hash range puts its boundaries, one shard after the other, with Citus's
// citus_split_shard_by_split_points (the new shards on the node of the shard they come from, every
// table colocated with it split alike). Writes to the shard being split wait while it is copied
// (block_writes: 1/N of the group's rows); the others go on. force_logical, which would let them
// go on too, hangs for good on Citus 13.2 when the shard's rows are updated meanwhile (its logical
// replication worker fails over and over: "publisher did not send replica identity column
// expected…", citusdata/citus#6790), and either mode fails a statement routed to the shard at its
// switch ("shard for the given value does not exist"): the step carries fails_concurrent_writes.
// That is the layout create_distributed_table would make with the new count only when the new
// count's boundaries fall on the old ones (a power of two times the old count, as from 32 to 64);
// otherwise the group is rewritten by alter_distributed_table, blocking writes to all of it, and
// the plan says why. Pure.
import { idOf, type ClusterModel } from '../model/types.js';
import type { QualifiedName } from '../sql/quote.js';
import type { Step } from './steps/steps.js';

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;
const RANGE = 4294967296n;

/** The shards' [min, max] hash bounds of create_distributed_table's even split into n (Citus's rule). */
export function evenSplit(n: number): [bigint, bigint][] {
  const step = RANGE / BigInt(n);
  return Array.from({ length: n }, (_, i) => {
    const min = INT32_MIN + BigInt(i) * step;
    return [min, i === n - 1 ? INT32_MAX : min + step - 1n];
  });
}

/** One shard split: its bounds (how its statement finds it) and the split points (the new shards' max bounds but the last). */
export interface ShardSplit {
  readonly min: string;
  readonly max: string;
  readonly points: readonly string[];
}

/** The splits that take an even split into `from` to the even split into `to`, or undefined when its bounds are not on the old ones. */
export function splitsBetween(from: number, to: number): ShardSplit[] | undefined {
  if (to <= from || to % from !== 0) return undefined;
  const old = evenSplit(from);
  const next = evenSplit(to);
  const k = to / from;
  const splits: ShardSplit[] = [];
  for (const [i, [min, max]] of old.entries()) {
    const children = next.slice(i * k, (i + 1) * k);
    if (children[0]![0] !== min || children[k - 1]![1] !== max) return undefined;
    splits.push({ min: String(min), max: String(max), points: children.slice(0, -1).map(([, hi]) => String(hi)) });
  }
  return splits;
}

/**
 * The online split of a group's shards for a shard count raised on `table`'s group, or why it
 * cannot be made so (then the rewrite stays).
 */
export function onlineShardSplit(table: QualifiedName, to: number, group: string, actual: ClusterModel): Step | string {
  const t = actual.tables[idOf(table)];
  const d = t?.distribution;
  if (d?.kind !== 'hash') return 'the table is not hash-distributed yet';
  const g = actual.groups[d.group];
  const from = g?.shardCount;
  if (!g || from === undefined) return 'its colocation group is not known';
  if (to < from) return `Citus merges no shards: going from ${from} to ${to} shards rewrites the tables`;
  const splits = splitsBetween(from, to);
  if (!splits)
    return `${to} shards do not split each of ${from} evenly (the even split's bounds would not fall on the present ones; a power of two times ${from} would)`;
  return { kind: 'split_shards', table, group, from, to, members: g.members.length, splits };
}
