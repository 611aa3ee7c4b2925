CREATE SCHEMA app;
CREATE TYPE app.pair AS (x integer, y text);
CREATE TABLE app.pairs OF app.pair (x WITH OPTIONS NOT NULL DEFAULT 1, PRIMARY KEY (x));
CREATE TABLE app.parted OF app.pair PARTITION BY LIST (y);
CREATE TABLE app.parted_a PARTITION OF app.parted FOR VALUES IN ('a');
