// What a step holds while it runs, and for about how long: the lock mode it takes on its tables
// (and on Citus on each of their shards), what the application's sessions wait for meanwhile,
// and, when the step reads, rewrites, copies or fills the table, an estimate of its time from the
// table's size (a coordinator table's from the catalog; a distributed table's from its shards'
// sizes, read for the plan command when it has such a step) at rates measured on the machine the
// benchmarks run on (docs/performance.md): an order of magnitude, not a promise. Pure.
import { DEFAULT_SHARD_COUNT, idOf, type ClusterModel, type Table } from '../model/types.js';
import type { QualifiedName } from '../sql/quote.js';
import { typeChangeRewrites } from './steps/type-rewrite.js';
import type { Step } from './steps/steps.js';

export type LockMode =
  'ACCESS EXCLUSIVE' | 'EXCLUSIVE' | 'SHARE ROW EXCLUSIVE' | 'SHARE' | 'SHARE UPDATE EXCLUSIVE' | 'ROW EXCLUSIVE';

/** What the step does to the rows while it holds the lock ('catalog': nothing, a moment). */
export type LockWork = 'catalog' | 'scan' | 'rewrite' | 'build' | 'copy' | 'fill';

export interface StepLock {
  readonly mode: LockMode;
  /** What the application's sessions wait for while it is held. */
  readonly blocks: 'reads and writes' | 'writes' | 'nothing';
  readonly work: LockWork;
  /** The tables it locks (ids). */
  readonly tables: readonly string[];
  /** Their shards (on Citus). */
  readonly shards?: number;
  /** The bytes its work goes through, when known. */
  readonly bytes?: number;
  /** Its time estimated from `bytes`, in ms. */
  readonly estimateMs?: number;
  /** Held on one shard at a time (a shard split), each for its share of the work. */
  readonly perShard?: true;
}

/** Bytes per second of each kind of work (2-core machine, PostgreSQL 15, Citus 13.2: perf:disruption). */
export const RATES: Readonly<Record<Exclude<LockWork, 'catalog'>, number>> = {
  scan: 300e6,
  rewrite: 100e6,
  build: 300e6,
  copy: 50e6,
  fill: 10e6,
};

/** A distributed table's size, summed over its shards (read from the workers). */
export type TableSizes = Readonly<Record<string, { readonly shards: number; readonly bytes: number }>>;

const BLOCKS: Readonly<Record<LockMode, StepLock['blocks']>> = {
  'ACCESS EXCLUSIVE': 'reads and writes',
  EXCLUSIVE: 'writes',
  'SHARE ROW EXCLUSIVE': 'writes',
  SHARE: 'writes',
  'SHARE UPDATE EXCLUSIVE': 'nothing',
  'ROW EXCLUSIVE': 'nothing',
};

type Lock = readonly [mode: LockMode, work: LockWork, tables?: readonly QualifiedName[]];

/** The lock a step takes on its table (and others), and its work; undefined: none of a table's, or not known. */
function lockOf(s: Step): Lock | undefined {
  switch (s.kind) {
    case 'add_column':
      return ['ACCESS EXCLUSIVE', s.rewrites !== undefined ? 'rewrite' : 'catalog'];
    case 'alter_column_type':
      return ['ACCESS EXCLUSIVE', typeChangeRewrites(s.from, s.type, s.using) ? 'rewrite' : 'catalog'];
    case 'alter_column_not_null':
      return ['ACCESS EXCLUSIVE', s.notNull ? 'scan' : 'catalog'];
    case 'alter_column_default':
    case 'alter_column_storage':
    case 'alter_column_statistics':
    case 'alter_column_compression':
    case 'alter_column_options':
    case 'alter_column_identity':
    case 'drop_column':
    case 'drop_column_expression':
    case 'start_backfill':
    case 'finish_backfill':
    case 'start_retype':
    case 'finish_retype':
    case 'abort_retype':
    case 'truncate_local_data':
    case 'drop_table':
    case 'drop_constraint':
      return ['ACCESS EXCLUSIVE', 'catalog'];
    case 'create_index':
      return s.concurrently ? ['SHARE UPDATE EXCLUSIVE', 'build'] : ['SHARE', 'build'];
    case 'drop_index':
      return s.concurrently ? ['SHARE UPDATE EXCLUSIVE', 'catalog'] : ['ACCESS EXCLUSIVE', 'catalog'];
    case 'add_primary_key':
    case 'add_unique':
      return ['ACCESS EXCLUSIVE', 'build'];
    case 'add_foreign_key':
      return ['SHARE ROW EXCLUSIVE', s.notValid || s.fk.notValid ? 'catalog' : 'scan', [s.table, s.refTable]];
    case 'validate_constraint':
      return ['SHARE UPDATE EXCLUSIVE', 'scan'];
    case 'backfill_column':
      return ['ROW EXCLUSIVE', 'fill'];
    // create_distributed_table and the others that copy a table's rows into shards take
    // ExclusiveLock on it (Citus's create_distributed_table.c): reads go on.
    case 'distribute_table':
    case 'create_reference_table':
    case 'create_single_shard_table':
      return ['EXCLUSIVE', s.copiesData ? 'copy' : 'catalog'];
    case 'distribute_table_concurrently':
      return ['SHARE UPDATE EXCLUSIVE', 'copy'];
    // One shard after the other, each blocking its writes while it is copied (shard-split.ts).
    case 'split_shards':
      return ['SHARE', 'copy'];
    case 'alter_distributed_table':
    case 'undistribute_table':
    case 'set_access_method':
      return ['EXCLUSIVE', 'copy'];
    case 'alter_table_access_method':
      return ['ACCESS EXCLUSIVE', 'rewrite'];
    default:
      return undefined;
  }
}

/** Shards of `t` (undefined: a table of the coordinator alone). */
function shardsOf(t: Table | undefined, groups: ClusterModel['groups']): number | undefined {
  switch (t?.distribution.kind) {
    case 'hash':
      return groups[t.distribution.group]?.shardCount ?? DEFAULT_SHARD_COUNT;
    case 'reference':
    case 'single_shard':
    case 'schema':
      return 1;
    default:
      return undefined;
  }
}

/** The lock `s` takes and what it costs, for a step on an existing table; undefined for the others. */
export function stepLock(s: Step, actual: ClusterModel, sizes: TableSizes = {}): StepLock | undefined {
  const lock = lockOf(s);
  const own = (s as { table?: QualifiedName }).table;
  if (!lock || own === undefined) return undefined;
  const [mode, work, tables = [own]] = lock;
  const found = tables.map((q) => actual.tables[idOf(q)]);
  const first = found[0];
  if (!first) return undefined; // a table this plan creates: empty, nobody waits for it
  const shardCounts = found.map((t) => (t ? (sizes[t.id]?.shards ?? shardsOf(t, actual.groups)) : undefined));
  const shards = shardCounts.some((n) => n !== undefined)
    ? shardCounts.reduce<number>((a, n) => a + (n ?? 0), 0)
    : undefined;
  // The work goes through the step's own table (a foreign key's scan reads both: the referencing one counts).
  const bytes =
    first.distribution.kind === 'local' || first.distribution.kind === 'citus_local'
      ? first.size && first.size.bytes > 0
        ? first.size.bytes
        : undefined
      : sizes[first.id]?.bytes;
  const estimateMs = work !== 'catalog' && bytes !== undefined ? Math.round((bytes / RATES[work]) * 1000) : undefined;
  return {
    mode,
    blocks: BLOCKS[mode],
    work,
    tables: tables.map(idOf),
    ...(shards !== undefined ? { shards } : {}),
    ...(bytes !== undefined ? { bytes } : {}),
    ...(estimateMs !== undefined ? { estimateMs } : {}),
    ...(s.kind === 'split_shards' ? { perShard: true as const } : {}),
  };
}

/** Whether the plan's estimates need the shards' sizes: a step that works through a distributed table's rows. */
export function wantsShardSizes(steps: readonly { readonly lock?: StepLock }[], actual: ClusterModel): string[] {
  const ids = new Set<string>();
  for (const s of steps) {
    const id = s.lock?.tables[0];
    const t = id !== undefined ? actual.tables[id] : undefined;
    if (
      s.lock &&
      s.lock.work !== 'catalog' &&
      s.lock.bytes === undefined &&
      t &&
      shardsOf(t, actual.groups) !== undefined
    )
      ids.add(id!);
  }
  return [...ids];
}

/** "ACCESS EXCLUSIVE on public.orders (32 shards, 412 MB): reads and writes wait ~7 s". */
export function lockText(l: StepLock, size: (bytes: number) => string): string {
  const what = [
    ...(l.shards !== undefined ? [`${l.shards} ${l.shards === 1 ? 'shard' : 'shards'}`] : []),
    ...(l.bytes !== undefined ? [size(l.bytes)] : []),
  ];
  const time = l.estimateMs !== undefined ? duration(l.estimateMs) : l.work === 'catalog' ? 'a moment' : '';
  const each = l.perShard && l.shards && l.estimateMs !== undefined ? duration(l.estimateMs / l.shards) : '';
  const waits = l.perShard
    ? `${l.blocks} to one shard at a time wait${each ? ` ${each} each` : ''}${time ? `, ${time} in all` : ''}`
    : l.blocks === 'nothing'
      ? `writes go on${time ? ` (${time})` : ''}`
      : `${l.blocks} wait${time ? ` ${time}` : ''}`;
  return `${l.mode} on ${l.tables.join(', ')}${what.length ? ` (${what.join(', ')})` : ''}: ${waits}`;
}

function duration(ms: number): string {
  if (ms < 1000) return 'under 1 s';
  if (ms < 120_000) return `~${Math.round(ms / 1000)} s`;
  return `~${Math.round(ms / 60_000)} min`;
}
