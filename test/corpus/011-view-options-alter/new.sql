CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE VIEW app.obj1 AS SELECT id FROM app.t WHERE a > 1 WITH LOCAL CHECK OPTION;
