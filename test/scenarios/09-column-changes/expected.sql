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

-- [1] change public.t.name from character varying(10) to character varying(40)
ALTER TABLE public.t ALTER COLUMN name TYPE character varying(40);

-- [2] set NOT NULL on public.t.name
ALTER TABLE public.t ALTER COLUMN name SET NOT NULL;

-- [3] set default of public.t.note to 'y'
ALTER TABLE public.t ALTER COLUMN note SET DEFAULT 'y';

-- [4] add column added numeric(8,2) DEFAULT 0 to public.t
ALTER TABLE public.t ADD COLUMN added numeric(8,2) DEFAULT 0;

COMMIT;

-- unmanaged (left alone): column public.t.old
-- unmanaged (left alone): index t_old_idx on public.t (old)
