CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text);
CREATE INDEX t_lower ON app.t (lower(a));
COMMENT ON INDEX app.t_lower IS 'lower index';
