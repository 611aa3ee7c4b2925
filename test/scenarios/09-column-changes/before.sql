CREATE TABLE t (id bigint NOT NULL, name varchar(10), note text DEFAULT 'x', old integer, PRIMARY KEY (id));
SELECT create_distributed_table('t', 'id', colocate_with => 'none', shard_count => 4);
CREATE INDEX t_old_idx ON t (old);
