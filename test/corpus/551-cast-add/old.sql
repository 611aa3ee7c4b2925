CREATE SCHEMA app;
CREATE TYPE app.money2 AS (v numeric);
CREATE FUNCTION app.money2_num(app.money2) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT ($1).v $$;
CREATE TABLE app.t (id bigint PRIMARY KEY, m app.money2);
