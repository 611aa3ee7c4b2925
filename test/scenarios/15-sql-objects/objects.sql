CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE VIEW scores AS SELECT id, score FROM t;
CREATE VIEW top_scores AS SELECT id FROM scores WHERE score > 10;
ALTER TABLE t ADD CONSTRAINT score_pos CHECK (score > 0);
CREATE INDEX t_score ON t (score DESC) WHERE score > 0;
COMMENT ON TABLE t IS 'scores by id';
