CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.parent (id int);
CREATE TABLE app.child (x int) INHERITS (app.parent);
