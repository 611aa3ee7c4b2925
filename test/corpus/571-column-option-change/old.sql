CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text COMPRESSION lz4, c text);
ALTER TABLE app.t ALTER COLUMN a SET (n_distinct = -0.5, n_distinct_inherited = 100);
