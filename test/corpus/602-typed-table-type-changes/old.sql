CREATE SCHEMA app;
CREATE TYPE app.pair AS (x integer, y text);
CREATE TABLE app.pairs OF app.pair;
