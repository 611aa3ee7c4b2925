CREATE SCHEMA app;
CREATE TABLE app.note (id int NOT NULL, note_class int DEFAULT 1, ref_key int);
CREATE TABLE app.asset_note () INHERITS (app.note);
ALTER TABLE app.asset_note ALTER COLUMN note_class SET DEFAULT 4;
ALTER TABLE app.asset_note ALTER COLUMN ref_key SET NOT NULL;
CREATE TABLE app.budget_note () INHERITS (app.note);
ALTER TABLE app.budget_note ALTER COLUMN note_class SET DEFAULT 6;
CREATE TABLE app.file_note () INHERITS (app.note);
ALTER TABLE ONLY app.file_note ALTER COLUMN note_class DROP DEFAULT;
