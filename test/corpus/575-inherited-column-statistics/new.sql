CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.parent (id int, a text);
CREATE TABLE app.child (b int) INHERITS (app.parent);
ALTER TABLE ONLY app.child ALTER COLUMN id SET STATISTICS 500;
