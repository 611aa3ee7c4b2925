// The object each step changes, named as the plan's unmanaged list and `ignore:` globs name it
// ("table app.t", "sequence app.s", "routine app.f(integer)", "schema app", "index app.i"…).
// One map keyed by step kind (a kind without an entry is a compile error); the plan document
// carries the result on every step so nothing downstream derives it again.
import { idOf } from '../model/types.js';
import { quoteIdent, type QualifiedName } from '../sql/quote.js';
import { dispatch, type Step, type StepKind, type StepOf } from './steps.js';

const table = (q: QualifiedName): string => `table ${idOf(q)}`;
const routine = (s: { routine: QualifiedName; signature?: string }): string =>
  `routine ${s.signature ?? idOf(s.routine)}`;

/** The object of each kind: a table's parts (columns, keys, indexes, partitions) are the table's. */
export const OBJECT_OF: { readonly [K in StepKind]: (s: StepOf<K>) => string } = {
  create_schema: (s) => `schema ${quoteIdent(s.schema)}`,
  create_sequence: (s) => `sequence ${s.sequence.id}`,
  alter_sequence: (s) => `sequence ${s.sequence.id}`,
  alter_sequence_everywhere: (s) => `sequence ${s.sequence.id}`,
  repair_shard: (s) => table(s.table),
  drop_sequence: (s) => `sequence ${idOf(s.sequence)}`,
  drop_schema: (s) => `schema ${quoteIdent(s.schema)}`,
  alter_column_storage: (s) => table(s.table),
  revoke_default_privileges: (s) => s.object,
  create_table: (s) => table(s.table),
  alter_table_persistence: (s) => table(s.table),
  create_index: (s) => table(s.table),
  drop_index: (s) => table(s.table),
  create_columnar_extension: () => 'extension citus_columnar',
  distribute_table_concurrently: (s) => table(s.table),
  validate_constraint: (s) => table(s.table),
  create_partition: (s) => table(s.table),
  drop_partition: (s) => table(s.table),
  set_access_method: (s) => table(s.table),
  set_columnar_options: (s) => table(s.table),
  add_local_table_to_metadata: (s) => table(s.table),
  distribute_schema: (s) => `schema ${quoteIdent(s.schema)}`,
  undistribute_schema: (s) => `schema ${quoteIdent(s.schema)}`,
  create_time_partitions: (s) => table(s.table),
  drop_old_time_partitions: (s) => table(s.table),
  set_old_partitions_access_method: (s) => table(s.table),
  create_reference_table: (s) => table(s.table),
  distribute_table: (s) => table(s.table),
  create_single_shard_table: (s) => table(s.table),
  add_foreign_key: (s) => table(s.table),
  truncate_local_data: (s) => table(s.table),
  add_column: (s) => table(s.table),
  alter_column_type: (s) => table(s.table),
  alter_column_identity: (s) => table(s.table),
  drop_column_expression: (s) => table(s.table),
  alter_column_not_null: (s) => table(s.table),
  alter_column_default: (s) => table(s.table),
  drop_column: (s) => table(s.table),
  add_primary_key: (s) => table(s.table),
  add_unique: (s) => table(s.table),
  rename_key: (s) => table(s.table),
  drop_constraint: (s) => table(s.table),
  attach_partition: (s) => table(s.table),
  detach_partition: (s) => table(s.partition),
  replace_constraint: (s) => table(s.table),
  undistribute_table: (s) => table(s.table),
  alter_distributed_table: (s) => table(s.table),
  update_colocation: (s) => table(s.table),
  drop_table: (s) => table(s.table),
  create_routine: routine,
  replace_routine: routine,
  drop_routine: routine,
  distribute_routine: routine,
  create_object: (s) => s.object,
  alter_object: (s) => s.object,
  drop_object: (s) => s.object,
};

export const objectOf = (s: Step): string => dispatch(OBJECT_OF, s);

/** The table id a step changes ("app.t"), if its object is a table. */
export function tableOf(s: Step): string | undefined {
  const o = objectOf(s);
  return o.startsWith('table ') ? o.slice('table '.length) : undefined;
}
