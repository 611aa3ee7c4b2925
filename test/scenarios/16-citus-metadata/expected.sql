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

-- [1] create function public.helper(integer)
SET LOCAL search_path TO public;
SET LOCAL citus.enable_metadata_sync TO off;
CREATE FUNCTION helper(x integer) RETURNS integer LANGUAGE sql AS $$ SELECT x + 1 $$;
SET LOCAL citus.enable_metadata_sync TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [2] create public.rf(integer) on every node (not delegated), colocated with public.ref
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.rf(integer)'::pg_catalog.regprocedure, colocate_with => 'public.ref'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;

-- not managed (never compared): range-distributed table public.r
-- not managed (never compared): shard isolation public.iso (hash -1330264708)
-- not managed (never compared): shard replication public.rep (2 placements per shard)
