-- Keys on expressions: a partition added under a timestamp expression (its bound written as a
-- date and read back as PostgreSQL prints it), a LIST on an expression over a varchar column,
-- an operator class of its own, and a new table on an expression with an index.
CREATE TABLE public.events (tenant int NOT NULL, at timestamptz NOT NULL, name text) PARTITION BY RANGE ((date_trunc('day', at AT TIME ZONE 'UTC')));
CREATE TABLE public.events_2024_01 PARTITION OF public.events FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE public.events_2024_02 PARTITION OF public.events FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
CREATE INDEX events_tenant ON public.events (tenant);
CREATE TABLE public.names (id int, name varchar(40)) PARTITION BY LIST (lower(name));
CREATE TABLE public.names_a PARTITION OF public.names FOR VALUES IN ('a', 'b');
CREATE TABLE public.names_rest PARTITION OF public.names DEFAULT;
CREATE TABLE public.codes (code text NOT NULL) PARTITION BY RANGE (code text_pattern_ops);
CREATE TABLE public.codes_a PARTITION OF public.codes FOR VALUES FROM ('a') TO ('n');
CREATE TABLE public.days (d date, v int) PARTITION BY RANGE ((d + 1), (v * 2));
CREATE TABLE public.days_1 PARTITION OF public.days FOR VALUES FROM ('2024-01-01', 0) TO ('2025-01-01', 100);
