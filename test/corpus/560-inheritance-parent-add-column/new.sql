CREATE SCHEMA app;
CREATE TABLE app.note (id serial PRIMARY KEY, body text NOT NULL, created timestamptz DEFAULT now() NOT NULL, kind int);
CREATE TABLE app.entity_note (entity_id int, PRIMARY KEY (id)) INHERITS (app.note);
CREATE INDEX entity_note_entity ON app.entity_note (entity_id);
ALTER TABLE app.entity_note ADD CHECK (kind = 1);
