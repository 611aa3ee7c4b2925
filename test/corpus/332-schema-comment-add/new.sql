CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE SCHEMA other;
COMMENT ON SCHEMA other IS 'kept apart';
