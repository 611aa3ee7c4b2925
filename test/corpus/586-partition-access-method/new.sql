-- PostgreSQL's create_am.sql: a partition and a table of another table access method than heap
-- and columnar (CREATE ACCESS METHOD in a sql: file, `access_method:` in the manifest), and a
-- materialized view of it: managed (named as not managed before 2026-11-30).
CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
COMMENT ON ACCESS METHOD heap2 IS 'heap, by another name';
CREATE TABLE public.parted (a integer) PARTITION BY LIST (a);
CREATE TABLE public.parted_b PARTITION OF public.parted FOR VALUES IN (1) USING heap2;
CREATE TABLE public.t2 (a integer) USING heap2;
CREATE MATERIALIZED VIEW public.mv USING heap2 AS SELECT 1 AS x;
