CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE FUNCTION app.obj1(x integer) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN x::text; END $$;
