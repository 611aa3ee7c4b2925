CREATE SCHEMA app;
CREATE TABLE app.ev (id bigint, at date NOT NULL, note text, n integer, PRIMARY KEY (id, at)) PARTITION BY RANGE (at);
CREATE TABLE app.ev_2024 PARTITION OF app.ev FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE app.ev_2025 PARTITION OF app.ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE INDEX ev_lower ON app.ev (lower(note), (n::text), coalesce(n, 0)) INCLUDE (id);
CREATE INDEX ev_at ON app.ev (at);
ALTER INDEX app.ev_2024_lower_n_coalesce_id_idx RENAME TO ev_2024_lower;
ALTER INDEX app.ev_2025_pkey RENAME TO ev_2025_key;
ALTER INDEX app.ev_2025_at_idx RENAME TO ev_2025_at;
