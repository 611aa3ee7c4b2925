BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] replace the body of function public.body_changes(integer)
SET LOCAL search_path TO public;
CREATE OR REPLACE FUNCTION body_changes(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p * 2; END $$;

-- [2] drop function public.result_changes(integer) to create it again (its result type or arguments changed) (hazards: breaks_cached_plans)
DROP FUNCTION public.result_changes(integer);

-- [3] create function public.result_changes(integer)
SET LOCAL search_path TO public;
CREATE FUNCTION result_changes(p integer) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;

-- [4] delegate calls of public.result_changes(integer) by $1 to the worker holding public.w's shard
SELECT create_distributed_function('public.result_changes(integer)', '$1', colocate_with => 'public.w', force_delegation => false);

-- [5] delegate calls of public.moves(integer, integer) by $2 to the worker holding public.w's shard, even inside transactions
SELECT create_distributed_function('public.moves(integer, integer)', '$2', colocate_with => 'public.w', force_delegation => true);

COMMIT;
