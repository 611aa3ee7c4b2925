-- back to what the partitions get from their table
CREATE SCHEMA app;
CREATE TABLE app.m (d date NOT NULL, id bigint NOT NULL, v text DEFAULT 'p', w int) PARTITION BY RANGE (d);
CREATE TABLE app.m1 PARTITION OF app.m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE TABLE app.m2 PARTITION OF app.m FOR VALUES FROM ('2021-01-01') TO ('2022-01-01');
CREATE TABLE app.m3 PARTITION OF app.m FOR VALUES FROM ('2022-01-01') TO ('2023-01-01');
