-- A partition's own storage parameters changed, its TOAST table's given, another partition's added.
CREATE SCHEMA app;
CREATE TABLE app.m (id bigint, ts date NOT NULL, note text) PARTITION BY RANGE (ts);
CREATE TABLE app.m_2024 PARTITION OF app.m FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') WITH (fillfactor = 80, autovacuum_enabled = false);
ALTER TABLE app.m_2024 SET (toast.autovacuum_enabled = false);
CREATE TABLE app.m_2025 PARTITION OF app.m FOR VALUES FROM ('2025-01-01') TO ('2026-01-01') WITH (fillfactor = 90);
