-- Partitions of partitions (PostgreSQL's partition_prune.sql and insert.sql keep trees three
-- levels deep): a partition partitioned by LIST with its own partitions, one of them partitioned
-- again by HASH, a DEFAULT at the second level, a partition of a partition in another schema,
-- and the table's key and index copied down every level.
CREATE SCHEMA archive;
CREATE TABLE public.sales (id bigint NOT NULL, region text NOT NULL, sold date NOT NULL, amount numeric, PRIMARY KEY (id, sold, region)) PARTITION BY RANGE (sold);
CREATE TABLE public.sales_2023 PARTITION OF public.sales FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE public.sales_2024 PARTITION OF public.sales FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (region);
CREATE TABLE public.sales_2024_eu PARTITION OF public.sales_2024 FOR VALUES IN ('eu', 'uk');
CREATE TABLE archive.sales_2024_us PARTITION OF public.sales_2024 FOR VALUES IN ('us') PARTITION BY HASH (id);
CREATE TABLE archive.sales_2024_us_0 PARTITION OF archive.sales_2024_us FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE archive.sales_2024_us_1 PARTITION OF archive.sales_2024_us FOR VALUES WITH (MODULUS 2, REMAINDER 1) WITH (fillfactor = 80);
CREATE TABLE public.sales_2024_rest PARTITION OF public.sales_2024 DEFAULT;
CREATE INDEX sales_amount ON public.sales (amount);
CREATE INDEX sales_2024_eu_own ON public.sales_2024_eu (region, amount);
