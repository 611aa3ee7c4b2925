-- A view becomes a materialized view of the same name.
CREATE TABLE account (id integer PRIMARY KEY, name text);
CREATE MATERIALIZED VIEW names AS SELECT name FROM account;
