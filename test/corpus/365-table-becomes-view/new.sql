-- An object changing kind: the table summary becomes a view of the same name (prune drops the
-- table before the view is created).
CREATE TABLE account (id integer PRIMARY KEY, name text);
CREATE VIEW summary AS SELECT id, name FROM account;
