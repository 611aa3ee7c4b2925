-- PostgreSQL's brin.sql and gin.sql: storage parameters keep the text they were set with (off, .05),
-- which pg_dump prints: the copy is made with the same.
CREATE TABLE public.t (id integer) WITH (autovacuum_enabled = off, fillfactor = 70, autovacuum_vacuum_scale_factor = .05);
CREATE TABLE public.u (id integer) WITH (autovacuum_enabled = true, toast.autovacuum_enabled = no);
