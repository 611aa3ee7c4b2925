-- A partition's column's own SET STATISTICS, SET (…) and SET STORAGE, which pg_dump dumps per
-- partition: managed (introspect dropped them without a word and a drift check said No
-- changes). The table's SET STATISTICS reaches its partitions (without ONLY) and p2's is set again.
CREATE TABLE p (id int, k int, c text) PARTITION BY RANGE (k);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10);
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20);
ALTER TABLE p ALTER COLUMN id SET STATISTICS 70;
ALTER TABLE ONLY p2 ALTER COLUMN id SET STATISTICS 20;
ALTER TABLE p1 ALTER COLUMN k SET (n_distinct = 4);
ALTER TABLE ONLY p2 ALTER COLUMN c SET STORAGE MAIN;
