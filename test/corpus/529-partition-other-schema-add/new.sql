-- Partitions kept in a schema of their own, apart from their table (with an index and storage parameters of their own).
CREATE SCHEMA archive;
CREATE TABLE ev (id bigint, ts date NOT NULL, body text) PARTITION BY RANGE (ts);
CREATE TABLE ev_2024 PARTITION OF ev FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE archive.ev_2022 PARTITION OF ev FOR VALUES FROM ('2022-01-01') TO ('2023-01-01');
CREATE TABLE archive.ev_2023 PARTITION OF ev FOR VALUES FROM ('2023-01-01') TO ('2024-01-01') WITH (fillfactor = 100);
CREATE INDEX ev_2023_id ON archive.ev_2023 (id);
