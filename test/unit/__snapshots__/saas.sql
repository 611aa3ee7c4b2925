-- citus-migrate 0.1.0 plan for saas (offline: against an empty cluster; tables and routines declared without columns or file are assumed to exist, undistributed)
-- 20 steps to apply.
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

-- [1] create schema app
CREATE SCHEMA app;

-- [2] create table app.companies (4 columns)
CREATE TABLE app.companies (
    id bigint NOT NULL,
    name text NOT NULL,
    plan_id text,
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    PRIMARY KEY (id)
);

-- [3] create table app.campaigns (4 columns)
CREATE TABLE app.campaigns (
    company_id bigint NOT NULL,
    id bigserial NOT NULL,
    name text NOT NULL,
    budget numeric(12,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (company_id, id)
);

-- [4] create table app.ads (5 columns)
CREATE TABLE app.ads (
    company_id bigint NOT NULL,
    id bigserial NOT NULL,
    campaign_id bigint NOT NULL,
    headline text,
    clicks bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (company_id, id)
);

-- [5] create index on app.ads (company_id, campaign_id)
CREATE INDEX ON app.ads USING btree (company_id, campaign_id);

-- [6] create table app.plans (2 columns)
CREATE TABLE app.plans (
    id text NOT NULL,
    monthly_price numeric(10,2) NOT NULL,
    PRIMARY KEY (id)
);

-- [7] create table app.audit_log (3 columns)
CREATE TABLE app.audit_log (
    id bigserial NOT NULL,
    at timestamp with time zone NOT NULL DEFAULT now(),
    message text,
    PRIMARY KEY (id)
);

-- [8] set cache 1000 on sequence app.campaigns_id_seq before its table is distributed
ALTER SEQUENCE app.campaigns_id_seq CACHE 1000;

-- [9] set cache 1000 on sequence app.ads_id_seq before its table is distributed
ALTER SEQUENCE app.ads_id_seq CACHE 1000;

-- [10] create procedure app.record_click(bigint, bigint)
-- Counts a click on one of a tenant's ads; delegated to the worker holding the tenant.
CREATE OR REPLACE PROCEDURE app.record_click(p_company_id bigint, p_ad_id bigint)
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE app.ads SET clicks = clicks + 1 WHERE company_id = p_company_id AND id = p_ad_id;
END
$$;

-- [11] create function app.ad_clicks(bigint, bigint)
-- Reads a tenant's click count for one ad (plpgsql, so the planner cannot inline it away).
CREATE OR REPLACE FUNCTION app.ad_clicks(p_company_id bigint, p_ad_id bigint)
RETURNS bigint
LANGUAGE plpgsql
STABLE
AS $$
BEGIN
  RETURN (SELECT clicks FROM app.ads WHERE company_id = p_company_id AND id = p_ad_id);
END
$$;

-- [12] make app.plans a reference table
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_reference_table('app.plans'::pg_catalog.regclass);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [13] distribute app.companies by id: anchor of colocation group "tenants", 32 shards
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('app.companies'::pg_catalog.regclass, 'id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 32::pg_catalog.int4);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [14] distribute app.campaigns by company_id, colocated with app.companies (group "tenants")
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('app.campaigns'::pg_catalog.regclass, 'company_id'::pg_catalog.text, colocate_with => 'app.companies'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [15] distribute app.ads by company_id, colocated with app.companies (group "tenants")
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_table('app.ads'::pg_catalog.regclass, 'company_id'::pg_catalog.text, colocate_with => 'app.companies'::pg_catalog.text);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [16] add foreign key app.companies (plan_id) -> app.plans (id)
ALTER TABLE app.companies ADD FOREIGN KEY (plan_id) REFERENCES app.plans (id);

-- [17] add foreign key app.campaigns (company_id) -> app.companies (id)
ALTER TABLE app.campaigns ADD FOREIGN KEY (company_id) REFERENCES app.companies (id);

-- [18] add foreign key app.ads (company_id, campaign_id) -> app.campaigns (company_id, id)
ALTER TABLE app.ads ADD FOREIGN KEY (company_id, campaign_id) REFERENCES app.campaigns (company_id, id);

-- [19] delegate calls of app.record_click(bigint, bigint) by $1 to the worker holding app.companies's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('app.record_click(bigint, bigint)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'app.companies'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

-- [20] delegate calls of app.ad_clicks(bigint, bigint) by $1 to the worker holding app.companies's shard
SET LOCAL search_path TO pg_catalog, pg_temp;
SET LOCAL check_function_bodies TO off;
SELECT pg_catalog.create_distributed_function('app.ad_clicks(bigint, bigint)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'app.companies'::pg_catalog.text, force_delegation => false::pg_catalog.bool);
SET LOCAL check_function_bodies TO on;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;
