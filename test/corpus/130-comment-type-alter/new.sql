CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TYPE app.ct AS ENUM ('a');
COMMENT ON TYPE app.ct IS 't2';
