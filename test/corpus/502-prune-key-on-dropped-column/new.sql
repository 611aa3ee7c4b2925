-- The column prune drops holds a unique key that a table prune drops references: its foreign
-- key and the key go first (DROP COLUMN would be refused while the foreign key depends on the
-- key, and DROP TABLE comes after DROP COLUMN).
CREATE TABLE item (id int PRIMARY KEY, sku text UNIQUE);
