CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, z integer);
CREATE VIEW app.v AS SELECT id, z FROM app.t;
