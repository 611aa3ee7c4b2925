// Step records of partitions: declared ones, and the time partitions Citus's functions keep.
import { catalogCall, quoteIdent, quoteLiteral, regclassLiteral, typedLiteral } from '../../sql/quote.js';
import { intervalText } from '../../sql/partition-bound.js';
import type { QualifiedName } from '../../sql/quote.js';
import { partitionParent, partitionQname, type Partition } from '../../model/types.js';
import { CITUS, PLAIN, type StepSpecs } from './spec-record.js';
import { q } from './sql-parts.js';
import { tableRef } from '../../model/object-ref.js';

type PartitionKind =
  | 'create_partition'
  | 'alter_foreign_partition'
  | 'attach_partition'
  | 'detach_partition'
  | 'drop_partition'
  | 'create_time_partitions'
  | 'drop_old_time_partitions'
  | 'set_old_partitions_access_method';

const partitionName = (s: { readonly table: QualifiedName; readonly partition: Partition }): QualifiedName =>
  partitionQname({ qname: s.table }, s.partition);
/** What the partition is created in or attached to: its table, or the partition it is one of. */
const parentOf = (s: { readonly table: QualifiedName; readonly partition: Partition }): QualifiedName =>
  partitionParent({ qname: s.table }, s.partition);
/** ` OPTIONS (k 'v', …)` of a foreign partition, or ''. */
const foreignOptions = (o: Readonly<Record<string, string>> | undefined): string =>
  o && Object.keys(o).length > 0
    ? ` OPTIONS (${Object.entries(o)
        .map(([k, v]) => `${quoteIdent(k)} ${quoteLiteral(v)}`)
        .join(', ')})`
    : '';
const few = (names: readonly string[]): string =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
const partitions = (n: number): string => `${n} partition${n === 1 ? '' : 's'}`;
const onTable = { object: (s: { readonly table: QualifiedName }) => tableRef(s.table) } as const;

export const PARTITION_SPECS: StepSpecs<PartitionKind> = {
  create_partition: {
    ...PLAIN,
    ...onTable,
    phase: () => 'tables',
    hazards: () => [],
    sql: (s) => [
      s.partition.foreign
        ? `CREATE FOREIGN TABLE ${q(partitionName(s))} PARTITION OF ${q(parentOf(s))} ${s.partition.bound} SERVER ${quoteIdent(s.partition.foreign.server)}${foreignOptions(s.partition.foreign.options)}`
        : `CREATE TABLE ${q(partitionName(s))} PARTITION OF ${q(parentOf(s))} ${s.partition.bound}${s.partition.partitionBy ? ` PARTITION BY ${s.partition.partitionBy}` : ''}${s.partition.accessMethod ? ` USING ${quoteIdent(s.partition.accessMethod)}` : ''}${s.tablespace !== undefined ? ` TABLESPACE ${s.tablespace}` : ''}`,
    ],
    summary: (s) =>
      `create ${s.partition.foreign ? 'foreign ' : ''}${s.partition.partitionBy ? 'partitioned ' : ''}partition ${q(partitionName(s))} of ${q(parentOf(s))} ${s.partition.bound}${s.partition.accessMethod ? ` (${s.partition.accessMethod})` : ''}${s.partition.foreign ? ` on server ${s.partition.foreign.server}` : ''}`,
  },
  alter_foreign_partition: {
    ...PLAIN,
    object: (s) => tableRef(s.partition),
    phase: () => 'tables',
    hazards: () => [],
    sql: (s) => [
      `ALTER FOREIGN TABLE ${q(s.partition)} OPTIONS (${[
        ...s.set.map(([k, v, add]) => `${add ? 'ADD' : 'SET'} ${quoteIdent(k)} ${quoteLiteral(v)}`),
        ...s.drop.map((k) => `DROP ${quoteIdent(k)}`),
      ].join(', ')})`,
    ],
    summary: (s) =>
      `change the options of foreign partition ${q(s.partition)}: ${[...s.set.map(([k, v]) => `${k} = ${v}`), ...s.drop.map((k) => `${k} dropped`)].join(', ')}`,
  },
  attach_partition: {
    ...PLAIN,
    ...onTable,
    phase: () => 'tables',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(parentOf(s))} ATTACH PARTITION ${q(partitionName(s))} ${s.partition.bound}`],
    summary: (s) => `attach table ${q(partitionName(s))} as a partition of ${q(parentOf(s))} ${s.partition.bound}`,
  },
  detach_partition: {
    ...PLAIN,
    object: (s) => tableRef(s.partition),
    phase: () => 'drop_objects',
    hazards: () => [],
    sql: (s) => [`ALTER TABLE ${q(s.table)} DETACH PARTITION ${q(s.partition)}`],
    summary: (s) =>
      `detach partition ${q(s.partition)} from ${q(s.table)} (it stays a table of its own, with its rows)`,
  },
  drop_partition: {
    ...PLAIN,
    ...onTable,
    phase: () => 'prune',
    hazards: (s) => (s.foreign ? [] : ['drops_data']),
    sql: (s) => [`DROP ${s.foreign ? 'FOREIGN ' : ''}TABLE ${q(s.partition)}`],
    summary: (s) => `drop ${s.foreign ? 'foreign ' : ''}partition ${q(s.partition)} of ${q(s.table)} (prune)`,
  },
  create_time_partitions: {
    ...CITUS,
    ...onTable,
    phase: () => 'time_partitions',
    hazards: () => [],
    sql: (s) => [
      catalogCall('create_time_partitions', [
        `table_name := ${regclassLiteral(s.table)}`,
        `partition_interval := ${typedLiteral(intervalText(s.interval), 'interval')}`,
        `end_at := ${typedLiteral(s.endAt, 'timestamptz')}`,
      ]),
    ],
    summary: (s) => `create ${intervalText(s.interval)} partitions of ${q(s.table)} until ${s.endAt}`,
  },
  drop_old_time_partitions: {
    ...CITUS,
    ...onTable,
    phase: () => 'time_partitions',
    hazards: () => ['drops_data'],
    sql: (s) => [
      catalogCall(
        'drop_old_time_partitions',
        [regclassLiteral(s.table), `older_than := ${typedLiteral(s.olderThan, 'timestamptz')}`],
        'CALL',
      ),
    ],
    summary: (s) =>
      `drop ${partitions(s.partitions.length)} of ${q(s.table)} older than ${s.olderThan}: ${few(s.partitions)}`,
  },
  set_old_partitions_access_method: {
    ...CITUS,
    ...onTable,
    phase: () => 'after_commit',
    // A procedure that commits after each partition: never inside the plan's transaction.
    hazards: () => ['rewrites_table', 'non_transactional'],
    sql: (s) => [
      catalogCall(
        'alter_old_partitions_set_access_method',
        [regclassLiteral(s.table), typedLiteral(s.olderThan, 'timestamptz'), typedLiteral(s.accessMethod, 'name')],
        'CALL',
      ),
    ],
    summary: (s) =>
      `make ${partitions(s.partitions.length)} of ${q(s.table)} older than ${s.olderThan} ${s.accessMethod}, one transaction each: ${few(s.partitions)}`,
  },
};
