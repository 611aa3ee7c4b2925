CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE VIEW app.v AS SELECT id, a FROM app.t;
