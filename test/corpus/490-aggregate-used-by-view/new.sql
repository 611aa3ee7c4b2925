-- A plain aggregate (pagila's group_concat): created after its state function, before the view
-- that calls it.
CREATE TABLE film (id bigint PRIMARY KEY, title text);
CREATE FUNCTION _group_concat(text, text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT CASE WHEN $2 IS NULL THEN $1 WHEN $1 IS NULL THEN $2 ELSE $1 || ', ' || $2 END $$;
CREATE AGGREGATE group_concat(text) (SFUNC = _group_concat, STYPE = text);
CREATE AGGREGATE total(integer) (SFUNC = int4pl, STYPE = integer, INITCOND = '0', COMBINEFUNC = int4pl, PARALLEL = SAFE);
CREATE VIEW film_titles AS SELECT group_concat(title) AS titles FROM film;
