CREATE TABLE t (id int PRIMARY KEY, v text);
