CREATE TABLE public.sales (id bigint NOT NULL, region text NOT NULL, sold date NOT NULL, amount numeric) PARTITION BY RANGE (sold);
CREATE TABLE public.sales_2023 PARTITION OF public.sales FOR VALUES FROM ('2023-01-01') TO ('2024-01-01') PARTITION BY LIST (region);
CREATE TABLE public.sales_2023_eu PARTITION OF public.sales_2023 FOR VALUES IN ('eu');
CREATE TABLE public.sales_2023_us PARTITION OF public.sales_2023 FOR VALUES IN ('us') PARTITION BY HASH (id);
CREATE TABLE public.sales_2023_us_0 PARTITION OF public.sales_2023_us FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE public.sales_2023_us_1 PARTITION OF public.sales_2023_us FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE public.sales_2024 PARTITION OF public.sales FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (region);
CREATE TABLE public.sales_2024_eu PARTITION OF public.sales_2024 FOR VALUES IN ('eu');
CREATE INDEX sales_amount ON public.sales (amount);
