CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, foo text, bar text);
COMMENT ON COLUMN app.t.foo IS 'foo column';
COMMENT ON COLUMN app.t.bar IS 'bar column';
