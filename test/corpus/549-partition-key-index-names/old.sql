CREATE SCHEMA app;
CREATE TABLE app.orders (id bigint, at date, code text, PRIMARY KEY (id, at), UNIQUE (code, at)) PARTITION BY RANGE (at);
CREATE TABLE app.orders_2024 PARTITION OF app.orders FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
