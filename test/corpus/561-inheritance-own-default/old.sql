CREATE SCHEMA app;
CREATE TABLE app.note (id int NOT NULL, note_class int DEFAULT 0, ref_key int);
CREATE TABLE app.asset_note () INHERITS (app.note);
CREATE TABLE app.budget_note () INHERITS (app.note);
ALTER TABLE app.budget_note ALTER COLUMN note_class SET DEFAULT 6;
