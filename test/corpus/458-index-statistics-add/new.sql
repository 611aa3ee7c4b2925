CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text);
CREATE INDEX t_expr ON app.t (lower(a));
ALTER INDEX app.t_expr ALTER COLUMN 1 SET STATISTICS 500;
