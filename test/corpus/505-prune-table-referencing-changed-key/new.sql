-- The primary key moves to another column, and the table whose foreign key held on to the old
-- one is pruned: its foreign key is dropped before the key.
CREATE TABLE users (id int, uid int PRIMARY KEY);
