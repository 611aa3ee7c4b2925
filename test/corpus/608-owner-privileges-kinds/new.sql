-- What an owner revoked from itself on each kind a GRANT names: a schema, a sequence, a table
-- (with a grant to PUBLIC beside it, and pg_dump's REVOKE ALL / GRANT form), a view, a type and
-- a procedure. The tool writes REVOKE … FROM the owner, and a copy's owner lacks the same.
CREATE SCHEMA app;
REVOKE CREATE ON SCHEMA app FROM CURRENT_USER;
CREATE SEQUENCE app.s;
REVOKE UPDATE ON SEQUENCE app.s FROM CURRENT_USER;
CREATE TABLE app.t (id int, note text);
GRANT SELECT ON app.t TO PUBLIC;
REVOKE ALL ON app.t FROM CURRENT_USER;
GRANT SELECT, INSERT, UPDATE ON app.t TO CURRENT_USER;
CREATE VIEW app.v AS SELECT id FROM app.t;
REVOKE TRIGGER, TRUNCATE ON app.v FROM CURRENT_USER;
CREATE TYPE app.e AS ENUM ('a', 'b');
REVOKE USAGE ON TYPE app.e FROM CURRENT_USER;
CREATE PROCEDURE app.p() LANGUAGE sql AS 'SELECT 1';
REVOKE EXECUTE ON PROCEDURE app.p() FROM CURRENT_USER;
