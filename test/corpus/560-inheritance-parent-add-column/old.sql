CREATE SCHEMA app;
CREATE TABLE app.note (id serial PRIMARY KEY, body text NOT NULL);
CREATE TABLE app.entity_note (entity_id int, PRIMARY KEY (id)) INHERITS (app.note);
CREATE INDEX entity_note_entity ON app.entity_note (entity_id);
