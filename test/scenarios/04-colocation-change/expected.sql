BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] colocate public.b with public.a (group "g"; metadata only)
SELECT update_distributed_table_colocation('public.b', colocate_with => 'public.a');

COMMIT;
