CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a bigint);
CREATE VIEW app.v AS SELECT id, a FROM app.t;
