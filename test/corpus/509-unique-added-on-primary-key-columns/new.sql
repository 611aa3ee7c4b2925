-- A unique constraint declared on the primary key's own columns is added (and kept).
CREATE TABLE t (id int PRIMARY KEY, v text);
ALTER TABLE t ADD CONSTRAINT t_id_key UNIQUE (id);
