-- A partition's own storage parameters (its TOAST table's too) reset to the defaults.
CREATE SCHEMA app;
CREATE TABLE app.m (id bigint, ts date NOT NULL, note text) PARTITION BY RANGE (ts);
CREATE TABLE app.m_2024 PARTITION OF app.m FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE app.m_2025 PARTITION OF app.m FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
