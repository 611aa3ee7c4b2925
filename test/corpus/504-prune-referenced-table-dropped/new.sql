-- A kept table's foreign keys the manifest no longer declares: the one to a table prune drops
-- goes before DROP TABLE, and its foreign key to itself goes too.
CREATE TABLE emp (id int PRIMARY KEY, dept_id int, manager_id int);
