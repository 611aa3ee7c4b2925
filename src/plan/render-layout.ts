// SQL and summaries of the layout step kinds: partitions, access methods, Citus-local tables,
// distributed schemas and time partitions (spread into render-sql.ts's tables).
import { quoteIdent, quoteLiteral, quoteQualified as q, quoteRegclass, sqlBool, sqlInt } from '../sql/quote.js';
import { DEFAULT_SHARD_COUNT, type ColumnarOptions } from '../model/types.js';
import { intervalText } from '../model/partition-bound.js';
import type { StepOf } from './steps.js';

export const LAYOUT_KINDS = [
  'distribute_table_concurrently',
  'validate_constraint',
  'create_columnar_extension',
  'create_partition',
  'drop_partition',
  'set_access_method',
  'set_columnar_options',
  'add_local_table_to_metadata',
  'distribute_schema',
  'undistribute_schema',
  'create_time_partitions',
  'drop_old_time_partitions',
  'set_old_partitions_access_method',
] as const;
type LayoutKind = (typeof LAYOUT_KINDS)[number];

/** The storage parameter of each columnar option. */
export const COLUMNAR_OPTION: { readonly [K in keyof Required<ColumnarOptions>]: string } = {
  compression: 'columnar.compression',
  compressionLevel: 'columnar.compression_level',
  stripeRowLimit: 'columnar.stripe_row_limit',
  chunkGroupRowLimit: 'columnar.chunk_group_row_limit',
};

const columnarOptionList = (o: ColumnarOptions): string[] =>
  (Object.keys(COLUMNAR_OPTION) as (keyof ColumnarOptions)[]).flatMap((k) => {
    const v = o[k];
    if (v === undefined) return [];
    return [`${COLUMNAR_OPTION[k]} = ${typeof v === 'number' ? sqlInt(v) : quoteLiteral(v)}`];
  });

const partitionName = (s: StepOf<'create_partition'>) => ({ schema: s.table.schema, name: s.partition.name });

export const RENDER_LAYOUT: { readonly [K in LayoutKind]: (s: StepOf<K>) => readonly string[] } = {
  // Outside the plan's transaction the preamble's SET LOCAL is gone: Citus refuses it with replication factor > 1.
  distribute_table_concurrently: (s) => [
    'SET citus.shard_replication_factor TO 1',
    s.colocateWith === 'none'
      ? `SELECT create_distributed_table_concurrently(${quoteRegclass(s.table)}, ${quoteLiteral(s.column)}, colocate_with => 'none', shard_count => ${sqlInt(s.shardCount ?? DEFAULT_SHARD_COUNT)})`
      : `SELECT create_distributed_table_concurrently(${quoteRegclass(s.table)}, ${quoteLiteral(s.column)}, colocate_with => ${quoteRegclass(s.colocateWith)})`,
  ],
  validate_constraint: (s) => [`ALTER TABLE ${q(s.table)} VALIDATE CONSTRAINT ${quoteIdent(s.name)}`],
  // Citus 13.2 no longer creates it with the citus extension; created on the coordinator, Citus propagates it.
  create_columnar_extension: () => ['CREATE EXTENSION IF NOT EXISTS citus_columnar'],
  create_partition: (s) => [
    `CREATE TABLE ${q(partitionName(s))} PARTITION OF ${q(s.table)} ${s.partition.bound}${s.partition.accessMethod ? ` USING ${quoteIdent(s.partition.accessMethod)}` : ''}`,
  ],
  drop_partition: (s) => [`DROP TABLE ${q(s.partition)}`],
  // Citus's function rewrites a distributed table shard by shard; a local one is rewritten in place.
  set_access_method: (s) => [
    `SELECT alter_table_set_access_method(${quoteRegclass(s.table)}, ${quoteLiteral(s.accessMethod)})`,
  ],
  // Citus applies them to every shard, in a transaction too.
  set_columnar_options: (s) => [
    ...(Object.keys(s.set).length > 0
      ? [`ALTER TABLE ${q(s.table)} SET (${columnarOptionList(s.set).join(', ')})`]
      : []),
    ...(s.reset.length > 0
      ? [`ALTER TABLE ${q(s.table)} RESET (${s.reset.map((k) => COLUMNAR_OPTION[k]).join(', ')})`]
      : []),
  ],
  add_local_table_to_metadata: (s) => [
    `SELECT citus_add_local_table_to_metadata(${quoteRegclass(s.table)}, cascade_via_foreign_keys => ${sqlBool(s.cascade)})`,
  ],
  distribute_schema: (s) => [`SELECT citus_schema_distribute(${quoteLiteral(quoteIdent(s.schema))})`],
  undistribute_schema: (s) => [`SELECT citus_schema_undistribute(${quoteLiteral(quoteIdent(s.schema))})`],
  create_time_partitions: (s) => [
    `SELECT create_time_partitions(table_name := ${quoteRegclass(s.table)}, partition_interval := ${quoteLiteral(intervalText(s.interval))}, end_at := ${quoteLiteral(s.endAt)})`,
  ],
  drop_old_time_partitions: (s) => [
    `CALL drop_old_time_partitions(${quoteRegclass(s.table)}, older_than := ${quoteLiteral(s.olderThan)})`,
  ],
  set_old_partitions_access_method: (s) => [
    `CALL alter_old_partitions_set_access_method(${quoteRegclass(s.table)}, ${quoteLiteral(s.olderThan)}, ${quoteLiteral(s.accessMethod)})`,
  ],
};

const few = (names: readonly string[]): string =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;

export const SUMMARY_LAYOUT: { readonly [K in LayoutKind]: (s: StepOf<K>) => string } = {
  distribute_table_concurrently: (s) =>
    `distribute ${q(s.table)} by ${quoteIdent(s.column)} without blocking writes (create_distributed_table_concurrently)${s.colocateWith === 'none' ? `: anchor of colocation group ${JSON.stringify(s.group)}` : `, colocated with ${q(s.colocateWith)}`}`,
  validate_constraint: (s) =>
    `validate constraint ${quoteIdent(s.name)} of ${q(s.table)} (checks existing rows; writes go on)`,
  create_columnar_extension: () => 'create extension citus_columnar (the columnar access method)',
  create_partition: (s) =>
    `create partition ${q(partitionName(s))} of ${q(s.table)} ${s.partition.bound}${s.partition.accessMethod ? ` (${s.partition.accessMethod})` : ''}`,
  drop_partition: (s) => `drop partition ${q(s.partition)} of ${q(s.table)} (prune)`,
  set_access_method: (s) =>
    `rewrite ${s.parent ? `partition ${q(s.table)} of ${q(s.parent)}` : q(s.table)} from ${s.from} to ${s.accessMethod}`,
  set_columnar_options: (s) =>
    `set columnar options of ${q(s.table)}: ${[...columnarOptionList(s.set), ...s.reset.map((k) => `${COLUMNAR_OPTION[k]} to its default`)].join(', ')}`,
  add_local_table_to_metadata: (s) =>
    `add ${q(s.table)} to Citus's metadata as a citus-local table${s.cascade ? ', with the tables linked to it by foreign keys' : ''}`,
  distribute_schema: (s) =>
    `distribute schema ${quoteIdent(s.schema)}: each of its tables becomes a single-shard table of the schema's group${s.copiesData ? ' (copies their rows to a worker)' : ''}`,
  undistribute_schema: (s) =>
    `undistribute schema ${quoteIdent(s.schema)}: its tables come back to the coordinator as local tables`,
  create_time_partitions: (s) => `create ${intervalText(s.interval)} partitions of ${q(s.table)} until ${s.endAt}`,
  drop_old_time_partitions: (s) =>
    `drop ${s.partitions.length} partition${s.partitions.length === 1 ? '' : 's'} of ${q(s.table)} older than ${s.olderThan}: ${few(s.partitions)}`,
  set_old_partitions_access_method: (s) =>
    `make ${s.partitions.length} partition${s.partitions.length === 1 ? '' : 's'} of ${q(s.table)} older than ${s.olderThan} ${s.accessMethod}, one transaction each: ${few(s.partitions)}`,
};
