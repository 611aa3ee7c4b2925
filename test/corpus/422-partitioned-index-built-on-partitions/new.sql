CREATE SCHEMA app;
CREATE TABLE app.m (d date NOT NULL, id bigint NOT NULL, v text) PARTITION BY RANGE (d);
CREATE TABLE app.m1 PARTITION OF app.m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE TABLE app.m2 PARTITION OF app.m FOR VALUES FROM ('2021-01-01') TO ('2022-01-01');
-- an expression index goes to an SQL file; PostgreSQL prints it ON ONLY app.m
CREATE INDEX m_v_words ON app.m USING gin (to_tsvector('english', v));
CREATE UNIQUE INDEX m_lower_v ON app.m (lower(v), d);
