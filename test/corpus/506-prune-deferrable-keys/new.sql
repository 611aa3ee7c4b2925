-- DEFERRABLE and NOT VALID keys the manifest does not declare are dropped like any other.
CREATE TABLE p (id int PRIMARY KEY, code text);
CREATE TABLE c (p_id int, code text);
