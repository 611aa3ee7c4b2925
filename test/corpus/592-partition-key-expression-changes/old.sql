CREATE TABLE public.events (tenant int NOT NULL, at timestamptz NOT NULL, name text) PARTITION BY RANGE ((date_trunc('day', at AT TIME ZONE 'UTC')));
CREATE TABLE public.events_2024_01 PARTITION OF public.events FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE public.names (id int, name varchar(40)) PARTITION BY LIST (lower(name));
CREATE TABLE public.names_a PARTITION OF public.names FOR VALUES IN ('a', 'b');
