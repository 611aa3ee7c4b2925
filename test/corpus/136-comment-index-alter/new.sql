CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE INDEX ci ON app.t (lower(b));
COMMENT ON INDEX app.ci IS 'i2';
