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

-- [1] undistribute public.r: its rows come back to the coordinator (hazards: rewrites_table)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.undistribute_table('public.r'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [2] undistribute public.d: its rows come back to the coordinator (hazards: rewrites_table)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.undistribute_table('public.d'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [3] distribute public.r by id: anchor of colocation group "public.r", 4 shards; copies its rows into the shards (hazards: copies_data)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.r'::pg_catalog.regclass, 'id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 4::pg_catalog.int4);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [4] remove the coordinator's local copy of public.r's rows (they are in the shards now)
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.truncate_local_data_after_distributing_table('public.r'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;
