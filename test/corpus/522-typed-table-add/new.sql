CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TYPE app.pair AS (x integer, y integer);
CREATE TABLE app.pairs OF app.pair (PRIMARY KEY (x));
