CREATE TYPE mood AS ENUM ('sad', 'happy');
CREATE TABLE t (id bigint PRIMARY KEY, score integer, m mood);
SELECT create_distributed_table('t', 'id', colocate_with => 'none', shard_count => 4);
CREATE VIEW scores AS SELECT id, score FROM t;
CREATE VIEW top_scores AS SELECT id FROM scores WHERE score > 10;
ALTER TABLE t ADD CONSTRAINT score_pos CHECK (score > 0);
COMMENT ON TABLE t IS 'old';
