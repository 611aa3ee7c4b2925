CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE FUNCTION app.obj1(x integer) RETURNS bigint LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN x; END $$;
