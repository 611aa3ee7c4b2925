CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE MATERIALIZED VIEW app.mv AS SELECT id, a FROM app.t;
CREATE INDEX obj1 ON app.mv (a);
