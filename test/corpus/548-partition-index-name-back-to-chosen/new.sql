CREATE SCHEMA app;
CREATE TABLE app.ev (id bigint, at date NOT NULL, note text) PARTITION BY RANGE (at);
CREATE TABLE app.ev_2024 PARTITION OF app.ev FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE app.ev_2025 PARTITION OF app.ev FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE INDEX ev_at ON app.ev (at);
CREATE INDEX ev_lower ON app.ev (lower(note));
