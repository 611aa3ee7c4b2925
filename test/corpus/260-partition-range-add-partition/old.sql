CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.p (d date NOT NULL, x int) PARTITION BY RANGE (d);
CREATE TABLE app.p2020 PARTITION OF app.p FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
