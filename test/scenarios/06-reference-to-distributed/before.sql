CREATE TABLE r (id bigint PRIMARY KEY, v text);
SELECT create_reference_table('r');
CREATE TABLE d (id bigint PRIMARY KEY);
SELECT create_distributed_table('d', 'id', colocate_with => 'none', shard_count => 4);
INSERT INTO r SELECT g, 'x' FROM generate_series(1, 10) g;
