CREATE SCHEMA app;
CREATE TABLE app.parent (id int, a text);
CREATE TABLE app.child (b int) INHERITS (app.parent);
