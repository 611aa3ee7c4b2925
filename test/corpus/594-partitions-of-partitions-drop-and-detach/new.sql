-- Partitions of partitions going away: a partitioned partition pruned with its partitions (one
-- DROP TABLE), a partition of a partition detached to a table of its own, and a partition of
-- a partition dropped alone.
CREATE TABLE public.sales (id bigint NOT NULL, region text NOT NULL, sold date NOT NULL, amount numeric) PARTITION BY RANGE (sold);
CREATE TABLE public.sales_2023 PARTITION OF public.sales FOR VALUES FROM ('2023-01-01') TO ('2024-01-01') PARTITION BY LIST (region);
CREATE TABLE public.sales_2023_eu (id bigint NOT NULL, region text NOT NULL, sold date NOT NULL, amount numeric);
CREATE TABLE public.sales_2024 PARTITION OF public.sales FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (region);
CREATE INDEX sales_amount ON public.sales (amount);
CREATE INDEX sales_2023_eu_amount_idx ON public.sales_2023_eu (amount);
