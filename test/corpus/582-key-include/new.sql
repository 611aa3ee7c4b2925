-- PostgreSQL's index_including.sql: keys with INCLUDE columns (their default names take them too).
CREATE TABLE public.tbl_include_pk (c1 int, c2 int, c3 int, c4 box, PRIMARY KEY (c1, c2) INCLUDE (c3, c4));
CREATE TABLE public.tbl_include_unique1 (c1 int, c2 int, c3 int, c4 box, UNIQUE (c1, c2) INCLUDE (c3, c4));
CREATE TABLE public.tbl_include_named (c1 int, c2 int, c3 int,
  CONSTRAINT tbl_include_named_u UNIQUE (c1) INCLUDE (c3) DEFERRABLE);
