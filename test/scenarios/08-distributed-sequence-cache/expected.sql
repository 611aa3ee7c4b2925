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

COMMIT;

-- The steps below run after COMMIT, one at a time (each in its own transaction where it can be).

SET citus.shard_replication_factor TO 1;
SET citus.enable_ddl_propagation TO on;
SET citus.enable_metadata_sync TO on;
SET citus.enable_create_type_propagation TO on;
SET citus.create_object_propagation TO 'immediate';
SET citus.enable_schema_based_sharding TO off;
SET citus.use_citus_managed_tables TO off;
SET citus.enable_unsafe_triggers TO off;
SET citus.enforce_foreign_key_restrictions TO on;
SET citus.allow_unsafe_constraints TO off;
SET citus.enable_manual_changes_to_shards TO off;
SET citus.propagate_set_commands TO 'local';
SET search_path TO pg_catalog, public;
SET standard_conforming_strings TO on;
SET TimeZone TO 'UTC';
SET DateStyle TO 'ISO, MDY';
SET IntervalStyle TO 'postgres';
SET xmloption TO 'content';
SET default_table_access_method TO 'heap';
SET default_tablespace TO '';
SET check_function_bodies TO on;

-- [1] set cache 1000 on distributed sequence public.t_id_seq on every node, outside the transaction (hazards: non_transactional)
SET search_path TO pg_catalog, pg_temp;
SET check_function_bodies TO off;
SET citus.enable_ddl_propagation TO off;
ALTER SEQUENCE public.t_id_seq CACHE 1000;
SET citus.enable_ddl_propagation TO on;
SELECT nodename, nodeport, success, result FROM pg_catalog.run_command_on_workers('DO $citus_migrate$ BEGIN
SET LOCAL citus.enable_ddl_propagation TO off;
SET LOCAL search_path = pg_catalog, pg_temp;
ALTER SEQUENCE public.t_id_seq CACHE 1000;
END $citus_migrate$'::pg_catalog.text);
SET check_function_bodies TO on;
SET search_path TO pg_catalog, public;
