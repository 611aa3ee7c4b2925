-- PostgreSQL's partition_aggregate.sql and partition_join.sql: keys on expressions, which the
-- manifest's partition_by (plain columns) cannot say: named with their partitions and indexes,
-- never written into a manifest that refuses them.
CREATE TABLE public.plain (id integer);
CREATE TABLE public.pagg_tab_m (a int, b int, c int) PARTITION BY RANGE (a, ((a + b) / 2));
CREATE TABLE public.pagg_tab_m_p1 PARTITION OF public.pagg_tab_m FOR VALUES FROM (0, 0) TO (10, 10);
CREATE INDEX pagg_tab_m_c ON public.pagg_tab_m (c);
CREATE TABLE public.pht1_e (a int, b int, c text) PARTITION BY HASH (ltrim(c, 'A'));
CREATE TABLE public.pht1_e_p0 PARTITION OF public.pht1_e FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE public.pht1_e_p1 PARTITION OF public.pht1_e FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE public.refs (id integer, c text COLLATE "C") PARTITION BY LIST (c COLLATE "POSIX");
