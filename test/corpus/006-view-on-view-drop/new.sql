CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE VIEW app.base AS SELECT id, a, b FROM app.t;
