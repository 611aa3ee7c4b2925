// The shard repair step kind (`plan --shards`, issue #24), part of the Step union in steps/steps.ts:
// a shard on one node that lacks what its table has on the coordinator (an index, a constraint,
// a trigger), or whose index is invalid. Its record is steps/shards-spec.ts.
import type { QualifiedName } from '../../sql/quote.js';

export type ShardRepair = 'create_index' | 'reindex' | 'add_constraint' | 'create_trigger';

/** A tenant of a colocation group put on a shard of its own (isolate_tenant_to_new_shard, CASCADE). */
export type IsolateStep = {
  readonly kind: 'isolate_tenant';
  /** The group's anchor table (the call reaches its colocated tables too). */
  readonly table: QualifiedName;
  /** The distribution value, SQL integer text, and its column's type. */
  readonly value: string;
  readonly type: string;
  readonly hash: number;
};

export type ShardStep = {
  readonly kind: 'repair_shard';
  readonly table: QualifiedName;
  readonly shardId: number;
  /** The shard as Citus names it (schema-qualified). */
  readonly shard: string;
  /** Where Citus reaches the node that holds this placement. */
  readonly node: { readonly host: string; readonly port: number };
  readonly repair: ShardRepair;
  /** What is wrong, without naming the shard ("index t_b is missing"). */
  readonly finding: string;
  /**
   * create_index / add_constraint / create_trigger: the coordinator's statement for the table,
   * which Citus's worker_apply_shard_ddl_command rewrites for the shard; reindex: the shard's
   * index, schema-qualified.
   */
  readonly ddl: string;
};
