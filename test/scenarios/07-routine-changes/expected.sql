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

-- [1] replace the body of function public.body_changes(integer)
SET LOCAL search_path TO public;
CREATE OR REPLACE FUNCTION body_changes(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p * 2; END $$;
SET LOCAL search_path TO pg_catalog, public;

-- [2] drop function public.result_changes(integer) to create it again (its result type or arguments changed) (hazards: breaks_cached_plans)
DROP FUNCTION public.result_changes(integer);

-- [3] create function public.result_changes(integer)
SET LOCAL search_path TO public;
CREATE FUNCTION result_changes(p integer) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;
SET LOCAL search_path TO pg_catalog, public;

-- [4] delegate calls of public.result_changes(integer) by $1 to the worker holding public.w's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.result_changes(integer)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.w'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [5] delegate calls of public.moves(integer, integer) by $2 to the worker holding public.w's shard, even inside transactions
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.moves(integer, integer)'::pg_catalog.regprocedure, '$2'::pg_catalog.text, colocate_with => 'public.w'::pg_catalog.text, force_delegation => true::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;
