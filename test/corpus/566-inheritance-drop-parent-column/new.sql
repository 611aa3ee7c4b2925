CREATE SCHEMA app;
CREATE TABLE app.parent (id int, kept bigint DEFAULT 1);
CREATE TABLE app.child (b int) INHERITS (app.parent);
