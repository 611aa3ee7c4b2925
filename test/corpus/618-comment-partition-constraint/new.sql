-- A comment on a partition's own constraint, and on the key it has from its table: pg_dump dumps
-- both; introspect dropped them without a word and a drift check said No changes.
CREATE TABLE p (id int PRIMARY KEY, at date) PARTITION BY RANGE (id);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (100);
ALTER TABLE p1 ADD CONSTRAINT c1 CHECK (id > 0);
COMMENT ON CONSTRAINT c1 ON p1 IS 'its own';
COMMENT ON CONSTRAINT p1_pkey ON p1 IS 'from its table';
