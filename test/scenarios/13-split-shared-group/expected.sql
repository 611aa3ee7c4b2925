BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] rewrite public.t0 with 4 shards (group "g1") (hazards: rewrites_table)
SELECT alter_distributed_table('public.t0', shard_count := 4, colocate_with := 'none', cascade_to_colocated := false);

COMMIT;
