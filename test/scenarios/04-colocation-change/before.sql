CREATE TABLE a (id bigint PRIMARY KEY);
CREATE TABLE b (id bigint PRIMARY KEY);
SELECT create_distributed_table('a', 'id', colocate_with => 'none', shard_count => 4);
SELECT create_distributed_table('b', 'id', colocate_with => 'none', shard_count => 4);
