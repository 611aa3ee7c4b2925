CREATE TABLE t (a bigint, b bigint);
SELECT create_distributed_table('t', 'a', colocate_with => 'none', shard_count => 4);
INSERT INTO t SELECT g, g % 7 FROM generate_series(1, 50) g;
