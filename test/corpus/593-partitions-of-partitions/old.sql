CREATE SCHEMA archive;
CREATE TABLE public.sales (id bigint NOT NULL, region text NOT NULL, sold date NOT NULL, amount numeric, PRIMARY KEY (id, sold, region)) PARTITION BY RANGE (sold);
CREATE TABLE public.sales_2023 PARTITION OF public.sales FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE INDEX sales_amount ON public.sales (amount);
