// Tables with triggers, distributed or rewritten by Citus (checked on Citus 13.2):
// - create_distributed_table refuses a table with triggers, or with a partition that has one
//   ("cannot distribute relation … because it has triggers"), and alter_distributed_table a group
//   one of whose tables has them ("triggers are not supported on distributed tables"), unless
//   citus.enable_unsafe_triggers is on: the trigger steps already set it; this marks the
//   distribution steps that need it.
// - create_distributed_table (a partitioned table's partitions each), create_reference_table and
//   a single-shard table's create_distributed_table copy the table's rows into the shards, and that
//   copy fires the shards' triggers: a BEFORE INSERT trigger changes every row a second time. Every
//   trigger of the table and of its partitions is paused for the copy and restored after
//   (checks/paused-triggers.ts). create_distributed_table_concurrently, alter_distributed_table,
//   undistribute_table and alter_table_set_access_method do not fire them (docs/citus-facts.md).
import { idOf, partitionQname, type ClusterModel, type SqlObject } from '../../model/types.js';
import { refId } from '../../model/object-ref.js';
import { pauseTriggersSql, RESUME_TRIGGERS_SQL } from './paused-triggers.js';
import { tableOf } from '../steps/step-spec.js';
import type { Step } from '../steps/steps.js';

const REWRITES: ReadonlySet<Step['kind']> = new Set([
  'distribute_table',
  'distribute_table_concurrently',
  'create_reference_table',
  'create_single_shard_table',
  'alter_distributed_table',
  'set_access_method',
]);
/** Steps whose copy of the rows fires the shards' triggers. */
const COPIES: ReadonlySet<Step['kind']> = new Set([
  'distribute_table',
  'create_reference_table',
  'create_single_shard_table',
]);

/** The steps, marked where they distribute or rewrite a table with triggers (its own or a partition's). */
export function markUnsafeTriggers(steps: readonly Step[], actual: ClusterModel): Step[] {
  const withTriggers = new Set<string>();
  for (const o of Object.values(actual.objects) as SqlObject[]) {
    const id = o.kind === 'trigger' && o.parent !== undefined ? refId(o.parent, 'relation') : undefined;
    if (id !== undefined) withTriggers.add(id);
  }
  if (withTriggers.size === 0) return [...steps];
  const hasTriggers = (id: string): boolean => {
    const t = actual.tables[id];
    return withTriggers.has(id) || (t?.partitions ?? []).some((p) => withTriggers.has(idOf(partitionQname(t!, p))));
  };
  const groupOf = (id: string): string | undefined => {
    const d = actual.tables[id]?.distribution;
    return d?.kind === 'hash' ? d.group : undefined;
  };
  const rewritten = (s: Step, id: string): string[] => {
    if (s.kind !== 'alter_distributed_table' || !s.cascade) return [id];
    const g = groupOf(id);
    return g === undefined ? [id] : Object.keys(actual.tables).filter((t) => groupOf(t) === g);
  };
  return steps.map((s) => {
    const id = REWRITES.has(s.kind) ? tableOf(s) : undefined;
    if (id === undefined || !rewritten(s, id).some(hasTriggers)) return s;
    const table = actual.tables[id];
    const paused = COPIES.has(s.kind) && table !== undefined && hasTriggers(id);
    return {
      ...s,
      unsafeTriggers: true,
      ...(paused ? { pausedTriggers: { pause: pauseTriggersSql(table.qname), resume: [RESUME_TRIGGERS_SQL] } } : {}),
    };
  });
}
