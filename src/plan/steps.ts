// The steps a plan is made of: a discriminated union, each kind rendered to SQL by exactly one
// renderer (render-sql.ts) so a kind without a renderer is a compile error.
import type { QualifiedName } from '../sql/quote.js';
import type { Column, Index, Key, ObjectKind, Sequence } from '../model/types.js';
import type { KeyStep } from './steps-keys.js';
import type { LayoutStep } from './steps-layout.js';
import type { ShardStep } from './steps-shards.js';
import type { ColumnStep } from './steps-columns.js';
import type { ObjectStep, RoutineStep } from './steps-objects.js';
import { SECURITY_HAZARDS, statementHazards } from './statement-hazards.js';
import { lossyCast } from './lossy-cast.js';
import type { StepCommon } from './step-common.js';

export type { StepCommon };

/** Every hazard a step can carry: the one list apply's --allow-hazards and its help read. */
export const HAZARDS = [
  'copies_data',
  'rewrites_table',
  'drops_data',
  'breaks_cached_plans',
  'non_transactional',
  ...SECURITY_HAZARDS,
] as const;
export type Hazard = (typeof HAZARDS)[number];

/** Phases run in this order; inside a phase, steps keep the manifest's declaration order. */
export const PHASES = [
  'drop_objects',
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
  'after_commit',
] as const;
export type Phase = (typeof PHASES)[number];

export type Step = StepCommon &
  (
    | { readonly kind: 'create_schema'; readonly schema: string }
    | { readonly kind: 'create_sequence'; readonly sequence: Sequence }
    | { readonly kind: 'alter_sequence'; readonly sequence: Sequence }
    | {
        readonly kind: 'create_table';
        readonly table: QualifiedName;
        readonly columns: readonly Column[];
        readonly primaryKey?: Key;
        readonly unique: readonly Key[];
        readonly unlogged?: boolean;
        readonly accessMethod?: string;
        readonly partitionBy?: string;
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
        /** DROP INDEX CONCURRENTLY IF EXISTS, after COMMIT (online, or an invalid index a failed build left). */
        readonly concurrently?: boolean;
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
  );

export type StepKind = Step['kind'];
export type StepOf<K extends StepKind> = Extract<Step, { kind: K }>;

// Pruned for good, these lose what was built on them: a view's definition others query, the
// values of an enum or domain (columns of another team that use them fail to drop or go).
const PRUNE_LOSES: ReadonlySet<ObjectKind> = new Set(['view', 'enum', 'domain', 'composite type']);
const TYPE_KINDS: ReadonlySet<ObjectKind> = new Set(['extension', 'enum', 'domain', 'composite type']);

// A revoke of what defaults give runs in its object's phase, after its CREATE (the same object,
// so the same chain: step-names.ts): views and materialized views are created with the objects.
const REVOKE_PHASE: Readonly<Record<StepOf<'revoke_default_privileges'>['target'], Phase>> = {
  SCHEMA: 'schemas',
  TYPE: 'types',
  SEQUENCE: 'sequences',
  TABLE: 'objects',
  ROUTINE: 'routines',
};

/** Where each kind runs. */
export const PHASE_OF: { readonly [K in StepKind]: (s: StepOf<K>) => Phase } = {
  create_schema: () => 'schemas',
  create_sequence: () => 'sequences',
  alter_sequence: () => 'tables',
  create_table: () => 'tables',
  alter_table_persistence: () => 'tables',
  create_index: () => 'tables',
  create_columnar_extension: () => 'types',
  distribute_table_concurrently: (s) => (s.colocateWith === 'none' ? 'colocation_anchors' : 'colocation_members'),
  validate_constraint: () => 'foreign_keys',
  create_partition: () => 'tables',
  drop_partition: () => 'prune',
  set_access_method: () => 'tables',
  set_columnar_options: () => 'tables',
  add_local_table_to_metadata: () => 'reference_tables',
  distribute_schema: () => 'schema_distribution',
  undistribute_schema: () => 'schema_distribution',
  create_time_partitions: () => 'time_partitions',
  drop_old_time_partitions: () => 'time_partitions',
  set_old_partitions_access_method: () => 'after_commit',
  create_routine: () => 'routines',
  create_reference_table: () => 'reference_tables',
  distribute_table: (s) => (s.colocateWith === 'none' ? 'colocation_anchors' : 'colocation_members'),
  create_single_shard_table: () => 'colocation_anchors',
  add_foreign_key: () => 'foreign_keys',
  truncate_local_data: () => 'cleanup',
  distribute_routine: () => 'routine_distribution',
  add_column: () => 'tables',
  alter_column_type: () => 'tables',
  alter_column_identity: () => 'tables',
  drop_column_expression: () => 'tables',
  alter_column_not_null: () => 'tables',
  alter_column_default: () => 'tables',
  alter_column_storage: () => 'tables',
  drop_column: () => 'prune',
  add_primary_key: () => 'tables',
  add_unique: () => 'tables',
  rename_key: () => 'tables',
  drop_constraint: () => 'drop_objects',
  attach_partition: () => 'tables',
  // First: what the plan drops or alters on the table it becomes (its CHECKs) is its own only then.
  detach_partition: () => 'drop_objects',
  replace_constraint: (s) => (s.constraint.kind === 'foreign key' ? 'foreign_keys' : 'tables'),
  drop_index: (s) => (s.recreate ? 'tables' : 'prune'),
  replace_routine: () => 'routines',
  drop_routine: (s) => (s.reason === 'prune' ? 'prune' : 'routines'),
  undistribute_table: () => 'undistribute',
  alter_distributed_table: (s) =>
    s.colocateWith === undefined || s.colocateWith === 'none' ? 'colocation_anchors' : 'colocation_members',
  update_colocation: () => 'colocation_members',
  alter_sequence_everywhere: () => 'after_commit',
  repair_shard: () => 'after_commit',
  drop_table: () => 'prune',
  drop_sequence: () => 'prune',
  drop_schema: () => 'prune_schemas', // no CASCADE: after everything in it, types too
  revoke_default_privileges: (s) => (s.object.startsWith('table ') ? 'tables' : REVOKE_PHASE[s.target]),
  create_object: (s) => (TYPE_KINDS.has(s.objectKind) ? 'types' : 'objects'),
  alter_object: (s) => (TYPE_KINDS.has(s.objectKind) ? 'types' : 'objects'),
  // Pruned types and extensions go after the tables that may use them.
  drop_object: (s) => (s.reason !== 'prune' ? 'drop_objects' : TYPE_KINDS.has(s.objectKind) ? 'prune_types' : 'prune'),
};

/** The hazards of each kind. */
export const HAZARDS_OF: { readonly [K in StepKind]: (s: StepOf<K>) => readonly Hazard[] } = {
  create_schema: () => [],
  create_sequence: () => [],
  alter_sequence: () => [],
  create_table: () => [],
  alter_table_persistence: () => ['rewrites_table'],
  create_index: (s) => (s.concurrently ? ['non_transactional'] : []),
  create_columnar_extension: () => [],
  // Not in a transaction block, one per statement; writes go on while it copies.
  distribute_table_concurrently: () => ['copies_data', 'non_transactional'],
  validate_constraint: () => [],
  create_partition: () => [],
  drop_partition: () => ['drops_data'],
  set_access_method: () => ['rewrites_table'],
  // Applies to stripes written from now on: nothing is rewritten.
  set_columnar_options: () => [],
  add_local_table_to_metadata: () => [],
  distribute_schema: (s) => (s.copiesData ? ['copies_data'] : []),
  undistribute_schema: () => ['rewrites_table'],
  create_time_partitions: () => [],
  drop_old_time_partitions: () => ['drops_data'],
  // A procedure that commits after each partition: never inside the plan's transaction.
  set_old_partitions_access_method: () => ['rewrites_table', 'non_transactional'],
  create_routine: (s) => statementHazards([s.definition]),
  create_reference_table: (s) => (s.copiesData ? ['copies_data'] : []),
  distribute_table: (s) => (s.copiesData ? ['copies_data'] : []),
  create_single_shard_table: (s) => (s.copiesData ? ['copies_data'] : []),
  add_foreign_key: () => [],
  truncate_local_data: () => [],
  distribute_routine: () => [],
  add_column: () => [],
  alter_column_type: (s) =>
    lossyCast(s.from, s.type) || s.using !== undefined ? ['rewrites_table', 'drops_data'] : ['rewrites_table'],
  alter_column_identity: () => [],
  drop_column_expression: () => [],
  alter_column_not_null: () => [],
  alter_column_default: () => [],
  alter_column_storage: () => [], // for values written from now on: nothing is rewritten
  drop_column: () => ['drops_data'],
  add_primary_key: () => [],
  add_unique: () => [],
  rename_key: () => [],
  drop_constraint: () => [],
  attach_partition: () => [],
  detach_partition: () => [],
  replace_constraint: () => [],
  drop_index: (s) => (s.concurrently ? ['non_transactional'] : []),
  replace_routine: (s) => statementHazards([s.definition]),
  drop_routine: (s) => (s.reason === 'prune' ? [] : ['breaks_cached_plans']),
  undistribute_table: () => ['rewrites_table'],
  alter_distributed_table: () => ['rewrites_table'],
  update_colocation: () => [],
  alter_sequence_everywhere: () => ['non_transactional'],
  repair_shard: () => ['non_transactional'], // on the node, through a connection of its own
  drop_table: () => ['drops_data'],
  // Its current value is data: a sequence created again starts over and hands out used values.
  drop_sequence: () => ['drops_data'],
  drop_schema: () => ['drops_data'], // its privileges, default privileges, comment
  revoke_default_privileges: () => [],
  create_object: (s) => statementHazards(s.statements),
  alter_object: (s) => statementHazards(s.statements),
  // A materialized view holds rows: dropping it (even to build it again) loses them until refreshed.
  drop_object: (s) => [
    ...(s.objectKind === 'materialized view' || (s.reason !== 'recreate' && PRUNE_LOSES.has(s.objectKind))
      ? (['drops_data'] as const)
      : []),
    ...statementHazards(s.statements),
  ],
};

function dispatch<R>(table: { readonly [K in StepKind]: (s: StepOf<K>) => R }, step: Step): R {
  return (table[step.kind] as (s: Step) => R)(step);
}

export const phaseOf = (s: Step): Phase => dispatch(PHASE_OF, s);
export const hazardsOf = (s: Step): readonly Hazard[] => dispatch(HAZARDS_OF, s);
export { dispatch };
