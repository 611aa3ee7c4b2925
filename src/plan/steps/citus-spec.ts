// Step records of Citus's table layouts: reference, distributed, single-shard and citus-local
// tables, distributed schemas, and the rewrites between them.
import {
  catalogCall,
  quoteIdent,
  regclassLiteral,
  tableNameLiteral,
  typedLiteral,
  typedValue,
  type QualifiedName,
} from '../../sql/quote.js';
import { DEFAULT_SHARD_COUNT } from '../../model/types.js';
import type { Phase, StepOf } from './steps.js';
import { CITUS, SHARDS, type StepSpecs } from './spec-record.js';
import { q } from './sql-parts.js';
import { waitForSplitWritersSql } from '../split-writers.js';
import { tableRef } from '../../model/object-ref.js';
import { schemaRef } from '../../model/object-ref.js';

type CitusKind =
  | 'create_reference_table'
  | 'distribute_table'
  | 'distribute_table_concurrently'
  | 'create_single_shard_table'
  | 'truncate_local_data'
  | 'undistribute_table'
  | 'alter_distributed_table'
  | 'split_shards'
  | 'update_colocation'
  | 'add_local_table_to_metadata'
  | 'distribute_schema'
  | 'undistribute_schema';

/** A colocation group's anchor (colocate_with => 'none') goes before the tables colocated with it. */
const colocationPhase = (colocateWith: 'none' | QualifiedName | undefined): Phase =>
  colocateWith === undefined || colocateWith === 'none' ? 'colocation_anchors' : 'colocation_members';
const onTable = { object: (s: { readonly table: QualifiedName }) => tableRef(s.table) } as const;
const onSchema = { object: (s: { readonly schema: string }) => schemaRef(s.schema) } as const;
const copies = (s: { readonly copiesData: boolean }) => (s.copiesData ? (['copies_data'] as const) : []);

function alterDistributed(s: StepOf<'alter_distributed_table'>): string {
  const args = [regclassLiteral(s.table)];
  if (s.column !== undefined) args.push(`distribution_column := ${typedLiteral(s.column, 'text')}`);
  if (s.shardCount !== undefined) args.push(`shard_count := ${typedValue(s.shardCount)}`);
  if (s.colocateWith !== undefined) args.push(`colocate_with := ${tableNameLiteral(s.colocateWith)}`);
  args.push(`cascade_to_colocated := ${typedValue(s.cascade)}`);
  return catalogCall('alter_distributed_table', args);
}

/**
 * One shard's split (plan/shard-split.ts): found by its table and bounds, so a statement that
 * already ran (a resumed apply) finds nothing and does nothing; its new shards on its node.
 */
function splitCall(s: StepOf<'split_shards'>, split: StepOf<'split_shards'>['splits'][number]): string {
  const node = Array.from({ length: split.points.length + 1 }, () => 'n.nodeid').join(', ');
  const points = split.points.map((p) => typedLiteral(p, 'text')).join(', ');
  return `SELECT pg_catalog.citus_split_shard_by_split_points(s.shardid, ARRAY[${points}]::pg_catalog.text[], ARRAY[${node}]::pg_catalog.int4[], 'block_writes'::citus.shard_transfer_mode)
  FROM pg_catalog.pg_dist_shard s
  JOIN pg_catalog.pg_dist_placement p ON p.shardid OPERATOR(pg_catalog.=) s.shardid
  JOIN pg_catalog.pg_dist_node n ON n.groupid OPERATOR(pg_catalog.=) p.groupid AND n.noderole OPERATOR(pg_catalog.=) 'primary'::pg_catalog.noderole
  WHERE s.logicalrelid OPERATOR(pg_catalog.=) ${regclassLiteral(s.table)} AND s.shardminvalue OPERATOR(pg_catalog.=) ${typedLiteral(split.min, 'text')}
    AND s.shardmaxvalue OPERATOR(pg_catalog.=) ${typedLiteral(split.max, 'text')}`;
}

/** create_distributed_table(_concurrently)'s call: every argument explicit and typed (Citus treats a NULL as a silent no-op). */
function distributeCall(
  fn: 'create_distributed_table' | 'create_distributed_table_concurrently',
  s: StepOf<'distribute_table'> | StepOf<'distribute_table_concurrently'>,
): string {
  const head = [regclassLiteral(s.table), typedLiteral(s.column, 'text')];
  return s.colocateWith === 'none'
    ? catalogCall(fn, [
        ...head,
        `colocate_with => ${tableNameLiteral('none')}`,
        `shard_count => ${typedValue(s.shardCount ?? DEFAULT_SHARD_COUNT)}`,
      ])
    : catalogCall(fn, [...head, `colocate_with => ${tableNameLiteral(s.colocateWith)}`]);
}

export const CITUS_SPECS: StepSpecs<CitusKind> = {
  create_reference_table: {
    ...SHARDS,
    ...onTable,
    phase: () => 'reference_tables',
    hazards: copies,
    sql: (s) => [catalogCall('create_reference_table', [regclassLiteral(s.table)])],
    summary: (s) => `make ${q(s.table)} a reference table${s.copiesData ? ' (copies its rows to every node)' : ''}`,
  },
  distribute_table: {
    ...SHARDS,
    ...onTable,
    phase: (s) => colocationPhase(s.colocateWith),
    hazards: copies,
    sql: (s) => [distributeCall('create_distributed_table', s)],
    summary: (s) =>
      (s.colocateWith === 'none'
        ? `distribute ${q(s.table)} by ${quoteIdent(s.column)}: anchor of colocation group ${JSON.stringify(s.group)}, ${s.shardCount} shards`
        : `distribute ${q(s.table)} by ${quoteIdent(s.column)}, colocated with ${q(s.colocateWith)} (group ${JSON.stringify(s.group)})`) +
      (s.copiesData ? '; copies its rows into the shards' : ''),
  },
  distribute_table_concurrently: {
    ...CITUS,
    ...onTable,
    phase: (s) => colocationPhase(s.colocateWith),
    // Not in a transaction block, one per statement; writes go on while it copies.
    hazards: () => ['copies_data', 'non_transactional'],
    // Outside the plan's transaction the preamble's SET LOCAL is gone: Citus refuses it with replication factor > 1.
    sql: (s) => ['SET citus.shard_replication_factor TO 1', distributeCall('create_distributed_table_concurrently', s)],
    summary: (s) =>
      `distribute ${q(s.table)} by ${quoteIdent(s.column)} without blocking writes (create_distributed_table_concurrently)${s.colocateWith === 'none' ? `: anchor of colocation group ${JSON.stringify(s.group)}` : `, colocated with ${q(s.colocateWith)}`}`,
  },
  create_single_shard_table: {
    ...SHARDS,
    ...onTable,
    phase: () => 'colocation_anchors',
    hazards: copies,
    sql: (s) => [
      catalogCall('create_distributed_table', [
        regclassLiteral(s.table),
        'NULL::pg_catalog.text',
        `colocate_with => ${tableNameLiteral('none')}`,
      ]),
    ],
    summary: (s) => `make ${q(s.table)} a single-shard distributed table`,
  },
  truncate_local_data: {
    ...CITUS,
    ...onTable,
    phase: () => 'cleanup',
    hazards: () => [],
    sql: (s) => [catalogCall('truncate_local_data_after_distributing_table', [regclassLiteral(s.table)])],
    summary: (s) => `remove the coordinator's local copy of ${q(s.table)}'s rows (they are in the shards now)`,
  },
  undistribute_table: {
    ...CITUS,
    ...onTable,
    phase: () => 'undistribute',
    hazards: () => ['rewrites_table'],
    sql: (s) => [catalogCall('undistribute_table', [regclassLiteral(s.table)])],
    summary: (s) => `undistribute ${q(s.table)}: its rows come back to the coordinator`,
  },
  alter_distributed_table: {
    ...CITUS,
    ...onTable,
    phase: (s) => colocationPhase(s.colocateWith),
    hazards: () => ['rewrites_table'],
    sql: (s) => [alterDistributed(s)],
    summary: (s) =>
      `rewrite ${q(s.table)}${s.column !== undefined ? ` to distribute by ${quoteIdent(s.column)}` : ''}${s.shardCount !== undefined ? ` with ${s.shardCount} shards` : ''}${s.colocateWith && s.colocateWith !== 'none' ? `, colocated with ${q(s.colocateWith)}` : ''} (group ${JSON.stringify(s.group)}${s.cascade ? ', with every table colocated with it' : ''})${s.notOnline ? `; not online: ${s.notOnline}` : ''}`,
  },
  split_shards: {
    ...SHARDS,
    ...onTable,
    phase: () => 'colocation_anchors',
    // After COMMIT, one split at a time: writes to that shard wait while it is copied, a statement
    // routed to it at its switch fails (plan/shard-split.ts).
    hazards: () => ['copies_data', 'non_transactional', 'fails_concurrent_writes'],
    // Before each split but the first, the group's writers older than the last split must be gone (split-writers.ts).
    sql: (s) => s.splits.flatMap((x, i) => [...(i > 0 ? [waitForSplitWritersSql(s.table)] : []), splitCall(s, x)]),
    summary: (s) =>
      `split each of ${q(s.table)}'s ${s.from} shards into ${s.to / s.from}${s.members > 1 ? `, with every table colocated with it (${s.members})` : ''}, for ${s.to} shards (group ${JSON.stringify(s.group)}), one shard at a time, each split followed by a pause as long as it took (citus_split_shard_by_split_points, block_writes: writes to that shard wait while it is copied, the others go on, and one routed to it at its switch fails with "shard for the given value does not exist"; each new shard on its shard's node)`,
  },
  update_colocation: {
    ...SHARDS,
    ...onTable,
    phase: () => 'colocation_members',
    hazards: () => [],
    sql: (s) => [
      catalogCall('update_distributed_table_colocation', [
        regclassLiteral(s.table),
        `colocate_with => ${tableNameLiteral(s.colocateWith)}`,
      ]),
    ],
    summary: (s) =>
      `colocate ${q(s.table)} with ${q(s.colocateWith)} (group ${JSON.stringify(s.group)}; metadata only)`,
  },
  add_local_table_to_metadata: {
    ...SHARDS,
    ...onTable,
    phase: () => 'reference_tables',
    hazards: () => [],
    sql: (s) => [
      catalogCall('citus_add_local_table_to_metadata', [
        regclassLiteral(s.table),
        `cascade_via_foreign_keys => ${typedValue(s.cascade)}`,
      ]),
    ],
    summary: (s) =>
      `add ${q(s.table)} to Citus's metadata as a citus-local table${s.cascade ? ', with the tables linked to it by foreign keys' : ''}`,
  },
  distribute_schema: {
    ...SHARDS,
    ...onSchema,
    phase: () => 'schema_distribution',
    hazards: copies,
    sql: (s) => [catalogCall('citus_schema_distribute', [typedLiteral(quoteIdent(s.schema), 'regnamespace')])],
    summary: (s) =>
      `distribute schema ${quoteIdent(s.schema)}: each of its tables becomes a single-shard table of the schema's group${s.copiesData ? ' (copies their rows to a worker)' : ''}`,
  },
  undistribute_schema: {
    ...SHARDS,
    ...onSchema,
    phase: () => 'schema_distribution',
    hazards: () => ['rewrites_table'],
    sql: (s) => [catalogCall('citus_schema_undistribute', [typedLiteral(quoteIdent(s.schema), 'regnamespace')])],
    summary: (s) =>
      `undistribute schema ${quoteIdent(s.schema)}: its tables come back to the coordinator as local tables`,
  },
};
