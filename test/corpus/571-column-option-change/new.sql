CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c text COMPRESSION pglz, d text COMPRESSION lz4);
ALTER TABLE app.t ALTER COLUMN a SET (n_distinct = 200);
ALTER TABLE app.t ALTER COLUMN d SET (n_distinct = -1);
CREATE TABLE app.u (x text COMPRESSION lz4, y int);
ALTER TABLE app.u ALTER COLUMN y SET (n_distinct = 12.5);
