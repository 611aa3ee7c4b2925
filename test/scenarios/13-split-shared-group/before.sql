CREATE TABLE t0 (id bigint PRIMARY KEY);
CREATE TABLE t1 (id bigint);
SELECT create_distributed_table('t0', 'id', colocate_with => 'none', shard_count => 2);
SELECT create_distributed_table('t1', 'id', colocate_with => 't0');
