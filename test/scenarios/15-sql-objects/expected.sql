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

-- [1] drop view public.top_scores (to create it again)
DROP VIEW public.top_scores;

-- [2] drop view public.scores (to create it again)
DROP VIEW public.scores;

-- [3] add value ok enum public.mood
ALTER TYPE public.mood ADD VALUE 'ok' BEFORE 'happy';

-- [4] change public.t.score from integer to bigint (hazards: rewrites_table)
ALTER TABLE public.t ALTER COLUMN score TYPE bigint;

-- [5] change comment on table public.t
SET LOCAL search_path TO public;
COMMENT ON TABLE t IS 'scores by id';
SET LOCAL search_path TO pg_catalog, public;

-- [6] create index public.t_score
SET LOCAL search_path TO public;
CREATE INDEX t_score ON t (score DESC) WHERE score > 0;
SET LOCAL search_path TO pg_catalog, public;

-- [7] create again view public.scores
SET LOCAL search_path TO public;
CREATE VIEW scores AS SELECT id, score FROM t;
SET LOCAL search_path TO pg_catalog, public;

-- [8] create again view public.top_scores
SET LOCAL search_path TO public;
CREATE VIEW top_scores AS SELECT id FROM scores WHERE score > 10;
SET LOCAL search_path TO pg_catalog, public;

COMMIT;
