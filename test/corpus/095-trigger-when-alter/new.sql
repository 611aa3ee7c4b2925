CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE FUNCTION app.tf() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER obj1 BEFORE UPDATE OF a, b ON app.t FOR EACH ROW WHEN (NEW.a > 0) EXECUTE FUNCTION app.tf();
