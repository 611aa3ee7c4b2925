CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE FUNCTION app.cf(x integer) RETURNS integer LANGUAGE sql AS 'SELECT x';
