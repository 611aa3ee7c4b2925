-- A materialized view's column's own SET STATISTICS, SET STORAGE and SET (…), which pg_dump
-- dumps: managed (introspect dropped them without a word and a drift check said No changes).
CREATE TABLE t (id int, c text, n numeric);
CREATE MATERIALIZED VIEW m AS SELECT id, c, n FROM t;
ALTER MATERIALIZED VIEW m ALTER COLUMN c SET STATISTICS 300;
ALTER MATERIALIZED VIEW m ALTER COLUMN c SET STORAGE EXTERNAL;
ALTER MATERIALIZED VIEW m ALTER COLUMN n SET (n_distinct = 3);
