-- PostgreSQL's compression.sql: a partition's own COMPRESSION on a column, and a materialized
-- view's (ALTER MATERIALIZED VIEW … SET COMPRESSION), declared in sql: files.
CREATE TABLE public.cmpart (f1 text COMPRESSION lz4) PARTITION BY HASH (f1);
CREATE TABLE public.cmpart1 PARTITION OF public.cmpart FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE public.cmpart2 PARTITION OF public.cmpart FOR VALUES WITH (MODULUS 2, REMAINDER 1);
ALTER TABLE public.cmpart1 ALTER COLUMN f1 SET COMPRESSION pglz;
CREATE MATERIALIZED VIEW public.compressmv AS SELECT f1 AS x FROM public.cmpart;
ALTER MATERIALIZED VIEW public.compressmv ALTER COLUMN x SET COMPRESSION lz4;
