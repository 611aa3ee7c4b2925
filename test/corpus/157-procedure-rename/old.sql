CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE PROCEDURE app.obj1(x integer) LANGUAGE plpgsql AS $$ BEGIN UPDATE app.t SET a = x; END $$;
