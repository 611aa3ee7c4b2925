// The steps a plan is made of: a discriminated union, each kind rendered to SQL by exactly one
// renderer (render-sql.ts) so a kind without a renderer is a compile error.
import type { QualifiedName } from '../sql/quote.js';
import type { Column, ForeignKey, Index, Sequence } from '../model/types.js';

export type Hazard = 'copies_data' | 'rewrites_table' | 'drops_data' | 'breaks_cached_plans' | 'non_transactional';

/** Phases run in this order; inside a phase, steps keep the manifest's declaration order. */
export const PHASES = [
  'schemas', 'sequences', 'tables', 'routines', 'reference_tables', 'colocation_anchors',
  'colocation_members', 'foreign_keys', 'cleanup', 'routine_distribution',
] as const;
export type Phase = (typeof PHASES)[number];

export type Step =
  | { readonly kind: 'create_schema'; readonly schema: string }
  | { readonly kind: 'create_sequence'; readonly sequence: Sequence }
  | { readonly kind: 'alter_sequence'; readonly sequence: Sequence }
  | { readonly kind: 'create_table'; readonly table: QualifiedName; readonly columns: readonly Column[]; readonly primaryKey?: readonly string[]; readonly unique: readonly (readonly string[])[] }
  | { readonly kind: 'create_index'; readonly table: QualifiedName; readonly index: Index }
  | { readonly kind: 'create_routine'; readonly routine: QualifiedName; readonly signature: string; readonly routineKind: 'function' | 'procedure'; readonly definition: string; readonly searchPath?: string }
  | { readonly kind: 'create_reference_table'; readonly table: QualifiedName; readonly copiesData: boolean }
  | { readonly kind: 'distribute_table'; readonly table: QualifiedName; readonly column: string; readonly group: string; readonly colocateWith: 'none' | QualifiedName; readonly shardCount?: number; readonly copiesData: boolean }
  | { readonly kind: 'create_single_shard_table'; readonly table: QualifiedName; readonly copiesData: boolean }
  | { readonly kind: 'add_foreign_key'; readonly table: QualifiedName; readonly fk: ForeignKey; readonly refTable: QualifiedName }
  | { readonly kind: 'truncate_local_data'; readonly table: QualifiedName }
  | { readonly kind: 'distribute_routine'; readonly routine: QualifiedName; readonly signature?: string; readonly argIndex?: number; readonly argName?: string; readonly colocateWith?: QualifiedName; readonly forceDelegation?: boolean };

export type StepKind = Step['kind'];
export type StepOf<K extends StepKind> = Extract<Step, { kind: K }>;

/** Where each kind runs. */
export const PHASE_OF: { readonly [K in StepKind]: (s: StepOf<K>) => Phase } = {
  create_schema: () => 'schemas',
  create_sequence: () => 'sequences',
  alter_sequence: () => 'tables',
  create_table: () => 'tables',
  create_index: () => 'tables',
  create_routine: () => 'routines',
  create_reference_table: () => 'reference_tables',
  distribute_table: (s) => (s.colocateWith === 'none' ? 'colocation_anchors' : 'colocation_members'),
  create_single_shard_table: () => 'colocation_anchors',
  add_foreign_key: () => 'foreign_keys',
  truncate_local_data: () => 'cleanup',
  distribute_routine: () => 'routine_distribution',
};

/** The hazards of each kind. */
export const HAZARDS_OF: { readonly [K in StepKind]: (s: StepOf<K>) => readonly Hazard[] } = {
  create_schema: () => [],
  create_sequence: () => [],
  alter_sequence: () => [],
  create_table: () => [],
  create_index: () => [],
  create_routine: () => [],
  create_reference_table: (s) => (s.copiesData ? ['copies_data'] : []),
  distribute_table: (s) => (s.copiesData ? ['copies_data'] : []),
  create_single_shard_table: (s) => (s.copiesData ? ['copies_data'] : []),
  add_foreign_key: () => [],
  truncate_local_data: () => [],
  distribute_routine: () => [],
};

function dispatch<R>(table: { readonly [K in StepKind]: (s: StepOf<K>) => R }, step: Step): R {
  return (table[step.kind] as (s: Step) => R)(step);
}

export const phaseOf = (s: Step): Phase => dispatch(PHASE_OF, s);
export const hazardsOf = (s: Step): readonly Hazard[] => dispatch(HAZARDS_OF, s);
export { dispatch };
