CREATE TABLE t (tenant bigint, id bigserial, PRIMARY KEY (tenant, id));
ALTER SEQUENCE t_id_seq CACHE 10;
SELECT create_distributed_table('t', 'tenant', colocate_with => 'none', shard_count => 4);
