-- citus-migrate 0.1.0 plan for hammerdb (procedures, 32 shards) (offline: against an empty cluster; tables and routines declared without columns or file are assumed to exist, undistributed)
-- 24 steps to apply.
-- run with: psql -v ON_ERROR_STOP=1 -f <this file>

BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL citus.enable_ddl_propagation TO on;
SET LOCAL citus.enable_metadata_sync TO on;
SET LOCAL citus.enable_create_type_propagation TO on;
SET LOCAL citus.create_object_propagation TO 'immediate';
SET LOCAL citus.enable_schema_based_sharding TO off;
SET LOCAL citus.use_citus_managed_tables TO off;
SET LOCAL citus.enable_unsafe_triggers TO off;
SET LOCAL citus.enforce_foreign_key_restrictions TO on;
SET LOCAL citus.allow_unsafe_constraints TO off;
SET LOCAL citus.enable_manual_changes_to_shards TO off;
SET LOCAL citus.propagate_set_commands TO 'local';
SET LOCAL search_path TO pg_catalog, public;
SET LOCAL standard_conforming_strings TO on;
SET LOCAL TimeZone TO 'UTC';
SET LOCAL DateStyle TO 'ISO, MDY';
SET LOCAL IntervalStyle TO 'postgres';
SET LOCAL xmloption TO 'content';
SET LOCAL default_table_access_method TO 'heap';
SET LOCAL default_tablespace TO '';
SET LOCAL check_function_bodies TO on;

-- [1] make public.item a reference table (copies its rows to every node) (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_reference_table('public.item'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [2] distribute public.warehouse by w_id: anchor of colocation group "warehouse", 32 shards; copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.warehouse'::pg_catalog.regclass, 'w_id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 32::pg_catalog.int4);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [3] distribute public.customer by c_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.customer'::pg_catalog.regclass, 'c_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [4] distribute public.district by d_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.district'::pg_catalog.regclass, 'd_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [5] distribute public.history by h_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.history'::pg_catalog.regclass, 'h_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [6] distribute public.stock by s_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.stock'::pg_catalog.regclass, 's_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [7] distribute public.new_order by no_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.new_order'::pg_catalog.regclass, 'no_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [8] distribute public.orders by o_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.orders'::pg_catalog.regclass, 'o_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [9] distribute public.order_line by ol_w_id, colocated with public.warehouse (group "warehouse"); copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.order_line'::pg_catalog.regclass, 'ol_w_id'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [10] remove the coordinator's local copy of public.item's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.item'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [11] remove the coordinator's local copy of public.warehouse's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.warehouse'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [12] remove the coordinator's local copy of public.customer's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.customer'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [13] remove the coordinator's local copy of public.district's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.district'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [14] remove the coordinator's local copy of public.history's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.history'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [15] remove the coordinator's local copy of public.stock's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.stock'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [16] remove the coordinator's local copy of public.new_order's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.new_order'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [17] remove the coordinator's local copy of public.orders's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.orders'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [18] remove the coordinator's local copy of public.order_line's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.order_line'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [19] create public.dbms_random(integer, integer) on every node (not delegated)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.dbms_random(integer, integer)'::pg_catalog.regprocedure);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [20] delegate calls of public.neword(integer, integer, integer, integer, integer, numeric, character varying, character varying, numeric, numeric, integer, timestamp without time zone) by $1 to the worker holding public.warehouse's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.neword(integer, integer, integer, integer, integer, numeric, character varying, character varying, numeric, numeric, integer, timestamp without time zone)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [21] delegate calls of public.payment(integer, integer, integer, integer, integer, numeric, character, character varying, integer, character varying, character varying, character varying, character, character, character varying, character varying, character varying, character, character, character varying, character, character varying, character varying, character varying, character, character, character, timestamp without time zone, numeric, numeric, numeric, character varying, timestamp without time zone) by $1 to the worker holding public.warehouse's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.payment(integer, integer, integer, integer, integer, numeric, character, character varying, integer, character varying, character varying, character varying, character, character, character varying, character varying, character varying, character, character, character varying, character, character varying, character varying, character varying, character, character, character, timestamp without time zone, numeric, numeric, numeric, character varying, timestamp without time zone)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [22] delegate calls of public.delivery(integer, integer, timestamp without time zone) by $1 to the worker holding public.warehouse's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.delivery(integer, integer, timestamp without time zone)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [23] delegate calls of public.ostat(integer, integer, integer, integer, character varying, character varying, character varying, numeric, integer, timestamp without time zone, integer, text) by $1 to the worker holding public.warehouse's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.ostat(integer, integer, integer, integer, character varying, character varying, character varying, numeric, integer, timestamp without time zone, integer, text)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [24] delegate calls of public.slev(integer, integer, integer, integer) by $1 to the worker holding public.warehouse's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.slev(integer, integer, integer, integer)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.warehouse'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;
