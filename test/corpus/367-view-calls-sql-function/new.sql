-- A view that calls a SQL function that reads a table declared after it by name.
CREATE TABLE rate (code text PRIMARY KEY, pct numeric NOT NULL);
CREATE FUNCTION rate_of(c text) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT pct FROM rate WHERE code = c $$;
CREATE VIEW a_rated AS SELECT code, rate_of(code) AS pct FROM rate;
