CREATE SCHEMA app;
CREATE TABLE app.parent (id int, gone text, kept int DEFAULT 1);
CREATE TABLE app.child (b int) INHERITS (app.parent);
ALTER TABLE app.child ALTER COLUMN kept SET DEFAULT 2;
