// The steps a plan is made of: a discriminated union. What the code knows about each kind (its
// phase, hazards, object, SQL, summary) is one record per kind in spec/ (step-spec.ts joins
// them), so a kind without a full record is a compile error.
import type { QualifiedName } from '../../sql/quote.js';
import type { Column, Index, Key, Sequence } from '../../model/types.js';
import type { KeyStep } from './keys.js';
import type { LayoutStep } from './layout.js';
import type { IsolateStep, ShardStep } from './shards.js';
import type { ColumnStep } from './columns.js';
import type { ObjectStep, RoutineStep } from './objects.js';
import { SECURITY_HAZARDS } from './security-hazards.js';
import type { StepCommon } from './step-common.js';

export type { StepCommon };

/** Every hazard a step can carry: the one list apply's --allow-hazards and its help read. */
export const HAZARDS = [
  'copies_data',
  'rewrites_table',
  'drops_data',
  'breaks_cached_plans',
  'non_transactional',
  'fails_concurrent_writes',
  ...SECURITY_HAZARDS,
] as const;
export type Hazard = (typeof HAZARDS)[number];

/** Phases run in this order; inside a phase, steps keep the manifest's declaration order. */
export const PHASES = [
  'drop_objects',
  'renames',
  'schemas',
  'types',
  'sequences',
  'tables',
  'routines',
  'undistribute',
  'schema_distribution',
  'reference_tables',
  'colocation_anchors',
  'colocation_members',
  'foreign_keys',
  'cleanup',
  'routine_distribution',
  'time_partitions',
  'objects',
  'prune',
  'prune_types',
  'prune_schemas',
  'event_triggers',
  'after_commit',
] as const;
export type Phase = (typeof PHASES)[number];

export type Step = StepCommon &
  (
    | { readonly kind: 'create_schema'; readonly schema: string }
    | { readonly kind: 'create_sequence'; readonly sequence: Sequence }
    /** ALTER SEQUENCE … SET LOGGED / UNLOGGED (a sequence no column owns). */
    | { readonly kind: 'alter_sequence_persistence'; readonly sequence: QualifiedName; readonly unlogged: boolean }
    | {
        readonly kind: 'alter_sequence';
        readonly sequence: Sequence;
        /** The sequence as it is (or as CREATE TABLE makes a serial column's): only what differs is altered. */
        readonly from: Sequence;
        /** Made by its table in this plan (no value drawn): restarted at its START, within its new bounds. */
        readonly restart?: boolean;
      }
    | {
        /** ALTER SEQUENCE … OWNED BY table.column (or NONE, without `owner`). */
        readonly kind: 'set_sequence_owner';
        readonly sequence: QualifiedName;
        readonly owner?: { readonly table: QualifiedName; readonly column: string };
      }
    | {
        readonly kind: 'create_table';
        readonly table: QualifiedName;
        readonly columns: readonly Column[];
        readonly primaryKey?: Key;
        readonly unique: readonly Key[];
        readonly unlogged?: boolean;
        readonly accessMethod?: string;
        readonly partitionBy?: string;
        /** INHERITS: its parents (its columns here are its own; theirs come with them). */
        readonly inherits?: readonly QualifiedName[];
        /** A typed table: ALTER TABLE … OF this composite type once it is made (`schema.name`). */
        readonly ofType?: string;
      }
    | LayoutStep
    | KeyStep
    | {
        readonly kind: 'create_index';
        readonly table: QualifiedName;
        readonly index: Index;
        /** CREATE INDEX CONCURRENTLY, after COMMIT (online). */
        readonly concurrently?: boolean;
      }
    | { readonly kind: 'create_reference_table'; readonly table: QualifiedName; readonly copiesData: boolean }
    | {
        readonly kind: 'distribute_table';
        readonly table: QualifiedName;
        readonly column: string;
        readonly group: string;
        readonly colocateWith: 'none' | QualifiedName;
        readonly shardCount?: number;
        readonly copiesData: boolean;
      }
    | { readonly kind: 'create_single_shard_table'; readonly table: QualifiedName; readonly copiesData: boolean }
    | { readonly kind: 'truncate_local_data'; readonly table: QualifiedName }
    | ColumnStep
    | {
        readonly kind: 'drop_index';
        readonly table: QualifiedName;
        readonly index: QualifiedName;
        readonly recreate?: boolean;
        /**
         * It is invalid (a failed CREATE INDEX CONCURRENTLY: not used, a UNIQUE not enforced), and
         * dropped IF EXISTS (to be built again, or pruned): the failed build may have left Citus
         * shards without it.
         */
        readonly invalid?: boolean;
        /** DROP INDEX CONCURRENTLY IF EXISTS, after COMMIT (online, or an invalid index a failed build left). */
        readonly concurrently?: boolean;
      }
    | {
        /** ALTER TABLE … SET (name = value, …) / RESET (name, …): its storage parameters. */
        readonly kind: 'alter_table_storage_parameters';
        readonly table: QualifiedName;
        readonly set: readonly (readonly [string, string])[];
        readonly reset: readonly string[];
        /**
         * Set once the plan has distributed the table: create_distributed_table gives each shard
         * the table's own parameters but not its TOAST table's (docs/citus-facts.md).
         */
        readonly afterDistribution?: boolean;
      }
    | {
        /** ALTER TABLE … RENAME TO: `table` is the former name, `to` the declared one (manifest `renamed_from`). */
        readonly kind: 'rename_table';
        readonly table: QualifiedName;
        readonly to: string;
      }
    | {
        /** ALTER TABLE … RENAME COLUMN: `table` by its declared name (renamed before, if it is). */
        readonly kind: 'rename_column';
        readonly table: QualifiedName;
        readonly column: string;
        readonly to: string;
      }
    | {
        /** ALTER SEQUENCE … RENAME TO: declared `renamed_from`, or a serial's own following its table or column. */
        readonly kind: 'rename_sequence';
        readonly sequence: QualifiedName;
        readonly to: string;
      }
    | {
        /**
         * ALTER [MATERIALIZED] VIEW … RENAME TO: a view of a `sql:` file declared `-- renamed_from:`.
         * `record`: the hash of its declared definition, recorded as what it became (plan/diff/view-renames.ts).
         */
        readonly kind: 'rename_view';
        readonly view: QualifiedName;
        readonly to: string;
        readonly materialized: boolean;
        readonly object: string;
        readonly record?: string;
      }
    | {
        /** ALTER INDEX … RENAME TO: an index of the declared definition under its former name. */
        readonly kind: 'rename_index';
        readonly table: QualifiedName;
        readonly index: QualifiedName;
        readonly to: string;
      }
    | {
        /**
         * ALTER INDEX … RENAME TO: a partition's copy of its parent's index `parent`, to the name
         * the manifest gives (`index_names`) or, given none, the one PostgreSQL chooses. `made`:
         * the copy is made by this plan (with the partition or the parent's index), under the
         * name PostgreSQL chooses, so it is renamed after: with the tables, with the objects of
         * the `sql:` files (a parent index of one), or after COMMIT (built concurrently).
         */
        readonly kind: 'name_partition_index';
        readonly table: QualifiedName;
        readonly partition: QualifiedName;
        readonly parent: string;
        readonly index: QualifiedName;
        readonly to: string;
        readonly made?: 'in_plan' | 'with_objects' | 'after_commit';
      }
    | { readonly kind: 'undistribute_table'; readonly table: QualifiedName }
    | {
        readonly kind: 'alter_distributed_table';
        readonly table: QualifiedName;
        readonly column?: string;
        readonly shardCount?: number;
        readonly colocateWith?: 'none' | QualifiedName;
        readonly cascade: boolean;
        readonly group: string;
        /** Online, a shard count that could not be raised by splitting shards: why (plan/shard-split.ts). */
        readonly notOnline?: string;
      }
    | {
        /**
         * A group's shard count raised online (plan/shard-split.ts): each of its `from` shards
         * split, with its colocated shards, into `to / from`, after COMMIT, one at a time.
         */
        readonly kind: 'split_shards';
        readonly table: QualifiedName;
        readonly group: string;
        readonly from: number;
        readonly to: number;
        /** The tables of the group, split together. */
        readonly members: number;
        readonly splits: readonly { readonly min: string; readonly max: string; readonly points: readonly string[] }[];
      }
    | {
        readonly kind: 'update_colocation';
        readonly table: QualifiedName;
        readonly colocateWith: QualifiedName;
        readonly group: string;
      }
    | { readonly kind: 'alter_sequence_everywhere'; readonly sequence: Sequence }
    | { readonly kind: 'drop_table'; readonly table: QualifiedName }
    | { readonly kind: 'drop_sequence'; readonly sequence: QualifiedName }
    | { readonly kind: 'drop_schema'; readonly schema: string }
    | ObjectStep
    | RoutineStep
    | ShardStep
    | IsolateStep
  );

export type StepKind = Step['kind'];
export type StepOf<K extends StepKind> = Extract<Step, { kind: K }>;
