CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text, b text);
CREATE INDEX t_expr ON app.t (lower(a), upper(b));
ALTER INDEX app.t_expr ALTER COLUMN 2 SET STATISTICS 100;
COMMENT ON INDEX app.t_expr IS 'kept';
