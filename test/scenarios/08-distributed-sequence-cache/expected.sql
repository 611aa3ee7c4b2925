BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

COMMIT;

-- The steps below run after COMMIT, one at a time (each in its own transaction where it can be).

-- [1] set cache 1000 on distributed sequence public.t_id_seq on every node, outside the transaction (hazards: non_transactional)
SET citus.enable_ddl_propagation TO off;
ALTER SEQUENCE public.t_id_seq CACHE 1000;
RESET citus.enable_ddl_propagation;
SELECT nodename, nodeport, success, result FROM run_command_on_workers('SET citus.enable_ddl_propagation TO off; ALTER SEQUENCE public.t_id_seq CACHE 1000');
