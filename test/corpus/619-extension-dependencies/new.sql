-- A function's, procedure's, index's and materialized view's DEPENDS ON EXTENSION, which pg_dump
-- dumps: managed (named as not managed before, dropped without a word before that): set, kept
-- and taken away in place.
CREATE EXTENSION citext;
CREATE TABLE t (id int, x int);
CREATE VIEW v AS SELECT id, x FROM t;
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1';
ALTER FUNCTION f() DEPENDS ON EXTENSION citext;
CREATE PROCEDURE pr(int) LANGUAGE sql AS 'SELECT $1';
ALTER PROCEDURE pr(int) DEPENDS ON EXTENSION citext;
CREATE INDEX ti ON t (id);
CREATE MATERIALIZED VIEW m AS SELECT id FROM t;
ALTER MATERIALIZED VIEW m DEPENDS ON EXTENSION citext;
