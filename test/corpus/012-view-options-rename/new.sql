CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE VIEW app.obj2 WITH (security_barrier) AS SELECT id FROM app.t;
