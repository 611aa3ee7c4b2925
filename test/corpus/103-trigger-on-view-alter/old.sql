CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE FUNCTION app.tf() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE VIEW app.tv AS SELECT id, a FROM app.t;
CREATE TRIGGER obj1 INSTEAD OF INSERT ON app.tv FOR EACH ROW EXECUTE FUNCTION app.tf();
