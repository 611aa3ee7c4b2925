-- The primary key goes and a unique constraint on the same column comes: the declared foreign
-- key that held on to the primary key's index is dropped first and added again after.
CREATE TABLE tag (id int NOT NULL UNIQUE, name text);
CREATE TABLE tagging (tag_id int NOT NULL REFERENCES tag (id), item int NOT NULL);
