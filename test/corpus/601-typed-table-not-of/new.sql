CREATE SCHEMA app;
CREATE TYPE app.pair AS (x integer, y text);
CREATE TYPE app.trio AS (x integer, y text, z date);
CREATE TABLE app.pairs (x integer, y text, z numeric);
CREATE TABLE app.other OF app.trio;
