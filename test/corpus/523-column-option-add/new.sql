CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
ALTER TABLE app.t ALTER COLUMN b SET COMPRESSION lz4;
ALTER TABLE app.t ALTER COLUMN a SET (n_distinct = -0.5);
