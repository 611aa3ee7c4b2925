CREATE SCHEMA app;
CREATE TABLE app.parent (id int NOT NULL, a text, CHECK (id > 0));
CREATE TABLE app.child (id int NOT NULL, a text, b int, CONSTRAINT parent_id_check CHECK (id > 0)) INHERITS (app.parent);
