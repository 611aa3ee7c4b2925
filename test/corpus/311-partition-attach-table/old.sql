CREATE SCHEMA app;
CREATE TABLE app.p (d date NOT NULL, x int) PARTITION BY RANGE (d);
CREATE TABLE app.p1 (d date NOT NULL, x int);
