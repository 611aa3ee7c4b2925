CREATE SCHEMA app;
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE TABLE app.m (id bigint, at date) PARTITION BY RANGE (at);
CREATE TABLE app.m_2020 PARTITION OF app.m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE FOREIGN TABLE app.m_2019 PARTITION OF app.m FOR VALUES FROM ('2019-01-01') TO ('2020-01-01') SERVER files OPTIONS (filename '/dev/zero', format 'text', delimiter '|');
CREATE INDEX m_id ON app.m (id);
