-- A partition's own storage parameters, in a corpus case of its own.
CREATE SCHEMA app;
CREATE TABLE app.m (id bigint, ts date NOT NULL, note text) PARTITION BY RANGE (ts);
CREATE TABLE app.m_2024 PARTITION OF app.m FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') WITH (fillfactor = 70);
CREATE TABLE app.m_2025 PARTITION OF app.m FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
