CREATE SCHEMA app;
CREATE TYPE app.money2 AS (v numeric);
CREATE FUNCTION app.money2_num(app.money2) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT ($1).v $$;
CREATE TABLE app.t (id bigint PRIMARY KEY, m app.money2);
CREATE CAST (app.money2 AS numeric) WITH FUNCTION app.money2_num(app.money2) AS ASSIGNMENT;
COMMENT ON CAST (app.money2 AS numeric) IS 'a money2 is its value';
CREATE DOMAIN public.code AS text;
CREATE CAST (text AS app.money2) WITH INOUT AS IMPLICIT;
CREATE VIEW app.v AS SELECT id, m::numeric + 1 AS next FROM app.t;
