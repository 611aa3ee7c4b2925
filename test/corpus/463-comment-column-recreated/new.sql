CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, b integer);
COMMENT ON COLUMN app.t.b IS 'new column';
