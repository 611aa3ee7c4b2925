CREATE TABLE tag (id int PRIMARY KEY, name text);
CREATE TABLE tagging (tag_id int NOT NULL REFERENCES tag (id), item int NOT NULL);
