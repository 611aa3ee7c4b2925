CREATE SCHEMA app;
CREATE TABLE app.p (d date NOT NULL, x int DEFAULT 0, PRIMARY KEY (d)) PARTITION BY RANGE (d);
-- detached, then changed as a table of its own
CREATE TABLE app.p1 (d date NOT NULL, x bigint DEFAULT 1, y text, CONSTRAINT p1_pkey PRIMARY KEY (d));
CREATE INDEX p1_own ON app.p1 (x);
