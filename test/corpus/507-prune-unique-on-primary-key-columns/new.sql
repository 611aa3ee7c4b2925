-- A unique constraint on the primary key's own columns that the manifest does not declare.
CREATE TABLE t (id int PRIMARY KEY, v text);
