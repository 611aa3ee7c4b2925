CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.m (d date NOT NULL, id bigint NOT NULL, x int CHECK (x > 0), PRIMARY KEY (d, id)) PARTITION BY RANGE (d);
CREATE TABLE app.m1 PARTITION OF app.m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE INDEX m_x ON app.m (x);
