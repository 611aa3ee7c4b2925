CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text);
CREATE VIEW app.v AS SELECT id, a, b FROM app.t;
