CREATE SCHEMA app;
CREATE TYPE app.pair AS (x integer, y text, z date);
CREATE TABLE app.pairs OF app.pair;
