BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] make public.item a reference table (copies its rows to every node) (hazards: copies_data)
SELECT create_reference_table('public.item');

-- [2] distribute public.warehouse by w_id: anchor of colocation group "warehouse", 4 shards; copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.warehouse', 'w_id', colocate_with => 'none', shard_count => 4);

-- [3] distribute public.district by d_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.district', 'd_w_id', colocate_with => 'public.warehouse');

-- [4] remove the coordinator's local copy of public.item's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.item');

-- [5] remove the coordinator's local copy of public.warehouse's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.warehouse');

-- [6] remove the coordinator's local copy of public.district's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.district');

COMMIT;
