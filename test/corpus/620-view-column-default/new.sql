-- A view column's default (what an INSERT through the view takes), which pg_dump dumps: managed
-- (named as not managed before, dropped without a word before that). Changed, added and dropped
-- in place; the view over it made again keeps its defaults.
CREATE TABLE t (id int, x int, s text);
CREATE VIEW v AS SELECT id, x, s, 1 AS one FROM t;
ALTER VIEW v ALTER COLUMN x SET DEFAULT 8;
ALTER VIEW v ALTER COLUMN id SET DEFAULT 0;
