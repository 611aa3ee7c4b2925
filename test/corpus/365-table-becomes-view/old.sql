CREATE TABLE account (id integer PRIMARY KEY, name text);
CREATE TABLE summary (id integer, name text);
