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

-- [1] create sequence public.ticket_seq (bigint, cache 100)
CREATE SEQUENCE public.ticket_seq AS bigint START WITH 1000 CACHE 100;

-- [2] create table public.accounts (2 columns)
CREATE TABLE public.accounts (
    tenant_id bigint NOT NULL,
    name text,
    PRIMARY KEY (tenant_id)
);

-- [3] create table public.orders (3 columns)
CREATE TABLE public.orders (
    tenant_id bigint NOT NULL,
    id bigserial NOT NULL,
    total numeric(12,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, id)
);

-- [4] create index on public.orders (tenant_id, total)
CREATE INDEX ON public.orders USING btree (tenant_id, total);

-- [5] create table public.countries (1 column)
CREATE TABLE public.countries (
    code character(2) NOT NULL,
    PRIMARY KEY (code)
);

-- [6] create table public.events (2 columns)
CREATE TABLE public.events (
    at timestamp with time zone,
    what text
);

-- [7] set cache 500 on sequence public.orders_id_seq before its table is distributed
ALTER SEQUENCE public.orders_id_seq CACHE 500;

-- [8] create procedure public.place_order(bigint, numeric)
SET LOCAL search_path TO public;
CREATE PROCEDURE place_order(p_tenant bigint, p_total numeric)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO orders (tenant_id, total) VALUES (p_tenant, p_total);
END $$;
SET LOCAL search_path TO pg_catalog, public;

-- [9] make public.countries a reference table
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_reference_table('public.countries'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [10] make public.events a single-shard distributed table
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.events'::pg_catalog.regclass, NULL::pg_catalog.text, colocate_with => 'none'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [11] distribute public.accounts by tenant_id: anchor of colocation group "tenants", 4 shards
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.accounts'::pg_catalog.regclass, 'tenant_id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 4::pg_catalog.int4);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [12] distribute public.orders by tenant_id, colocated with public.accounts (group "tenants")
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('public.orders'::pg_catalog.regclass, 'tenant_id'::pg_catalog.text, colocate_with => 'public.accounts'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [13] add foreign key public.orders (tenant_id) -> public.accounts (tenant_id)
ALTER TABLE public.orders ADD FOREIGN KEY (tenant_id) REFERENCES public.accounts (tenant_id);

-- [14] delegate calls of public.place_order(bigint, numeric) by $1 to the worker holding public.accounts's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('public.place_order(bigint, numeric)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.accounts'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;
