BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] undistribute public.r: its rows come back to the coordinator (hazards: rewrites_table)
SELECT undistribute_table('public.r');

-- [2] undistribute public.d: its rows come back to the coordinator (hazards: rewrites_table)
SELECT undistribute_table('public.d');

-- [3] distribute public.r by id: anchor of colocation group "public.r", 4 shards; copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.r', 'id', colocate_with => 'none', shard_count => 4);

-- [4] remove the coordinator's local copy of public.r's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.r');

COMMIT;
