CREATE SCHEMA app;
CREATE TABLE app.orders (id bigint, at date, code text, PRIMARY KEY (id, at), UNIQUE (code, at)) PARTITION BY RANGE (at);
CREATE TABLE app.orders_2024 PARTITION OF app.orders FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE app.orders_with_a_partition_name_long_enough_to_be_cut_by_postgresql PARTITION OF app.orders FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
ALTER INDEX app.orders_2024_pkey RENAME TO orders_2024_key_of_id;
ALTER INDEX app.orders_2024_code_at_key RENAME TO orders_2024_code;
