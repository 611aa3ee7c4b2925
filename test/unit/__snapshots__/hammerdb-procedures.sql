-- citus-migrate 0.1.0 plan for hammerdb (procedures, 32 shards) (offline: against an empty cluster; tables and routines declared without columns or file are assumed to exist, undistributed)
-- 24 steps to apply.
-- run with: psql -v ON_ERROR_STOP=1 -f <this file>

BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] make public.item a reference table (copies its rows to every node) (hazards: copies_data)
SELECT create_reference_table('public.item');

-- [2] distribute public.warehouse by w_id: anchor of colocation group "warehouse", 32 shards; copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.warehouse', 'w_id', colocate_with => 'none', shard_count => 32);

-- [3] distribute public.customer by c_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.customer', 'c_w_id', colocate_with => 'public.warehouse');

-- [4] distribute public.district by d_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.district', 'd_w_id', colocate_with => 'public.warehouse');

-- [5] distribute public.history by h_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.history', 'h_w_id', colocate_with => 'public.warehouse');

-- [6] distribute public.stock by s_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.stock', 's_w_id', colocate_with => 'public.warehouse');

-- [7] distribute public.new_order by no_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.new_order', 'no_w_id', colocate_with => 'public.warehouse');

-- [8] distribute public.orders by o_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.orders', 'o_w_id', colocate_with => 'public.warehouse');

-- [9] distribute public.order_line by ol_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.order_line', 'ol_w_id', colocate_with => 'public.warehouse');

-- [10] remove the coordinator's local copy of public.item's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.item');

-- [11] remove the coordinator's local copy of public.warehouse's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.warehouse');

-- [12] remove the coordinator's local copy of public.customer's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.customer');

-- [13] remove the coordinator's local copy of public.district's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.district');

-- [14] remove the coordinator's local copy of public.history's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.history');

-- [15] remove the coordinator's local copy of public.stock's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.stock');

-- [16] remove the coordinator's local copy of public.new_order's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.new_order');

-- [17] remove the coordinator's local copy of public.orders's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.orders');

-- [18] remove the coordinator's local copy of public.order_line's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.order_line');

-- [19] create public.dbms_random(integer, integer) on every node (not delegated)
SELECT create_distributed_function('public.dbms_random(integer, integer)');

-- [20] delegate calls of public.neword(integer, integer, integer, integer, integer, numeric, character varying, character varying, numeric, numeric, integer, timestamp without time zone) by $1 to the worker holding public.warehouse's shard
SELECT create_distributed_function('public.neword(integer, integer, integer, integer, integer, numeric, character varying, character varying, numeric, numeric, integer, timestamp without time zone)', '$1', colocate_with => 'public.warehouse', force_delegation => false);

-- [21] delegate calls of public.payment(integer, integer, integer, integer, integer, numeric, character, character varying, integer, character varying, character varying, character varying, character, character, character varying, character varying, character varying, character, character, character varying, character, character varying, character varying, character varying, character, character, character, timestamp without time zone, numeric, numeric, numeric, character varying, timestamp without time zone) by $1 to the worker holding public.warehouse's shard
SELECT create_distributed_function('public.payment(integer, integer, integer, integer, integer, numeric, character, character varying, integer, character varying, character varying, character varying, character, character, character varying, character varying, character varying, character, character, character varying, character, character varying, character varying, character varying, character, character, character, timestamp without time zone, numeric, numeric, numeric, character varying, timestamp without time zone)', '$1', colocate_with => 'public.warehouse', force_delegation => false);

-- [22] delegate calls of public.delivery(integer, integer, timestamp without time zone) by $1 to the worker holding public.warehouse's shard
SELECT create_distributed_function('public.delivery(integer, integer, timestamp without time zone)', '$1', colocate_with => 'public.warehouse', force_delegation => false);

-- [23] delegate calls of public.ostat(integer, integer, integer, integer, character varying, character varying, character varying, numeric, integer, timestamp without time zone, integer, text) by $1 to the worker holding public.warehouse's shard
SELECT create_distributed_function('public.ostat(integer, integer, integer, integer, character varying, character varying, character varying, numeric, integer, timestamp without time zone, integer, text)', '$1', colocate_with => 'public.warehouse', force_delegation => false);

-- [24] delegate calls of public.slev(integer, integer, integer, integer) by $1 to the worker holding public.warehouse's shard
SELECT create_distributed_function('public.slev(integer, integer, integer, integer)', '$1', colocate_with => 'public.warehouse', force_delegation => false);

COMMIT;
