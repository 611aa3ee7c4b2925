CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE MATERIALIZED VIEW app.obj1 AS SELECT count(*) AS n FROM app.t;
