BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] rewrite public.a with 8 shards (group "g", with every table colocated with it) (hazards: rewrites_table)
SELECT alter_distributed_table('public.a', shard_count := 8, cascade_to_colocated := true);

COMMIT;
