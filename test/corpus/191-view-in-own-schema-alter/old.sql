CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE SCHEMA reports;
CREATE VIEW reports.obj1 AS SELECT id FROM app.t;
