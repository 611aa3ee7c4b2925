BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] make public.keep a reference table (copies its rows to every node) (hazards: copies_data)
SELECT create_reference_table('public.keep');

-- [2] remove the coordinator's local copy of public.keep's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.keep');

-- [3] drop function public.stray_fn() (prune)
DROP FUNCTION public.stray_fn();

-- [4] drop table public.stray (prune) (hazards: drops_data)
DROP TABLE public.stray;

-- [5] drop sequence public.stray_seq (prune) (hazards: drops_data)
DROP SEQUENCE public.stray_seq;

COMMIT;
