-- PostgreSQL's create_am.sql: a partition and a table of another table access method than heap
-- and columnar: named, never written into a manifest that refuses it.
CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE TABLE public.parted (a integer) PARTITION BY LIST (a);
CREATE TABLE public.parted_b PARTITION OF public.parted FOR VALUES IN (1) USING heap2;
CREATE TABLE public.t2 (a integer) USING heap2;
