CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE FUNCTION app.double(x integer) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT x * 2';
CREATE VIEW app.obj1 AS SELECT id, app.double(a) AS d FROM app.t;
