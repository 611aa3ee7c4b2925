CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
ALTER TABLE app.t ADD CONSTRAINT cc CHECK (a > 0);
COMMENT ON CONSTRAINT cc ON app.t IS 'c1';
