CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text);
CREATE INDEX t_a ON app.t (a);
COMMENT ON INDEX app.t_a IS 'a index';
