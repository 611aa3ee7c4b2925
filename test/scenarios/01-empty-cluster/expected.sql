BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

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

-- [9] make public.countries a reference table
SELECT create_reference_table('public.countries');

-- [10] make public.events a single-shard distributed table
SELECT create_distributed_table('public.events', NULL, colocate_with => 'none');

-- [11] distribute public.accounts by tenant_id: anchor of colocation group "tenants", 4 shards
SELECT create_distributed_table('public.accounts', 'tenant_id', colocate_with => 'none', shard_count => 4);

-- [12] distribute public.orders by tenant_id, colocated with public.accounts (group "tenants")
SELECT create_distributed_table('public.orders', 'tenant_id', colocate_with => 'public.accounts');

-- [13] add foreign key public.orders (tenant_id) -> public.accounts (tenant_id)
ALTER TABLE public.orders ADD FOREIGN KEY (tenant_id) REFERENCES public.accounts (tenant_id);

-- [14] delegate calls of public.place_order(bigint, numeric) by $1 to the worker holding public.accounts's shard
SELECT create_distributed_function('public.place_order(bigint, numeric)', '$1', colocate_with => 'public.accounts', force_delegation => false);

COMMIT;
