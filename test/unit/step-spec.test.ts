// The step records' flags as a table: which kinds need Citus (a plan problem on a database
// without it) and which touch shards (apply's cluster guard waits for a ready cluster). These
// were two plain sets the compiler did not check (plan.ts's CITUS_STEP_KINDS and
// cluster-guard.ts's SHARD_KINDS); a kind added without its flags right fails here.
import { describe, expect, it } from 'vitest';
import { SPEC_GROUPS, STEP_KINDS, STEP_SPEC, needsCitus, touchesShards } from '../../src/plan/steps/step-spec.js';

/** Kinds that call Citus functions. */
const NEEDS_CITUS = new Set([
  'create_reference_table',
  'distribute_table',
  'create_single_shard_table',
  'truncate_local_data',
  'distribute_routine',
  'undistribute_table',
  'alter_distributed_table',
  'update_colocation',
  'alter_sequence_everywhere',
  'repair_shard',
  'create_columnar_extension',
  'distribute_table_concurrently',
  'set_access_method',
  'add_local_table_to_metadata',
  'distribute_schema',
  'undistribute_schema',
  'create_time_partitions',
  'drop_old_time_partitions',
  'set_old_partitions_access_method',
  'cast_on_workers',
  'grant_on_workers',
  'isolate_tenant',
  'split_shards',
]);

/** Kinds that create, move or rewrite shards whatever their hazards. */
const TOUCHES_SHARDS = new Set([
  'distribute_table',
  'create_reference_table',
  'create_single_shard_table',
  'update_colocation',
  'distribute_schema',
  'undistribute_schema',
  'add_local_table_to_metadata',
  'isolate_tenant',
  'split_shards',
]);

describe('step records', () => {
  it('has a record for every kind the tables name', () => {
    for (const k of [...NEEDS_CITUS, ...TOUCHES_SHARDS]) expect(STEP_KINDS).toContain(k);
    expect(STEP_KINDS.length).toBe(new Set(STEP_KINDS).size);
  });

  it.each(STEP_KINDS)('%s: needsCitus and touchesShards as the table says', (kind) => {
    expect({ needsCitus: needsCitus(kind), touchesShards: touchesShards(kind) }).toEqual({
      needsCitus: NEEDS_CITUS.has(kind),
      touchesShards: TOUCHES_SHARDS.has(kind),
    });
  });

  it('a kind that touches shards needs Citus', () => {
    for (const k of STEP_KINDS) if (touchesShards(k)) expect(needsCitus(k), k).toBe(true);
  });

  it('puts each kind in exactly one group, and every group record is the one used', () => {
    const seen = new Map<string, string>();
    for (const [group, specs] of Object.entries(SPEC_GROUPS))
      for (const [kind, spec] of Object.entries(specs)) {
        expect(seen.get(kind), `${kind} in ${group} and ${seen.get(kind)}`).toBeUndefined();
        seen.set(kind, group);
        expect(STEP_SPEC[kind as keyof typeof STEP_SPEC]).toBe(spec);
      }
    expect([...seen.keys()].sort()).toEqual([...STEP_KINDS].sort());
  });
});
