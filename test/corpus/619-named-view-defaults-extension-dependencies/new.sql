-- A view column's default and a function's or index's DEPENDS ON EXTENSION, which pg_dump dumps:
-- named as not managed (introspect dropped them without a word, a drift check said No changes).
CREATE EXTENSION citext;
CREATE TABLE t (id int, x int);
CREATE VIEW v AS SELECT id, x FROM t;
ALTER VIEW v ALTER COLUMN x SET DEFAULT 7;
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1';
ALTER FUNCTION f() DEPENDS ON EXTENSION citext;
CREATE INDEX ti ON t (id);
ALTER INDEX ti DEPENDS ON EXTENSION citext;
