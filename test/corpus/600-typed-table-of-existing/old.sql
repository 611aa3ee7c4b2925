CREATE SCHEMA app;
CREATE TYPE app.pair AS (x integer, y text);
CREATE TABLE app.pairs (x integer NOT NULL DEFAULT 1, y text, PRIMARY KEY (x));
INSERT INTO app.pairs VALUES (1, 'one');
