BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] create function public.helper(integer)
SET LOCAL search_path TO public;
SET LOCAL citus.enable_metadata_sync TO off;
CREATE FUNCTION helper(x integer) RETURNS integer LANGUAGE sql AS $$ SELECT x + 1 $$;
RESET citus.enable_metadata_sync;

-- [2] create public.rf(integer) on every node (not delegated), colocated with public.ref
SELECT create_distributed_function('public.rf(integer)', colocate_with => 'public.ref');

COMMIT;

-- not managed (never compared): range-distributed table public.r
-- not managed (never compared): shard layout public.iso (6 shards, not an even split of the hash range)
-- not managed (never compared): shard replication public.rep (2 placements per shard)
