CREATE TABLE item (id int PRIMARY KEY, sku text UNIQUE, code text UNIQUE);
CREATE TABLE old_ref (code text REFERENCES item (code));
