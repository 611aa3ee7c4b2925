CREATE TABLE account (id integer PRIMARY KEY, name text);
CREATE VIEW names AS SELECT name FROM account;
