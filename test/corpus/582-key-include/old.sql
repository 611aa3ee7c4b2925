CREATE TABLE public.tbl_include_pk (c1 int, c2 int, c3 int, c4 box);
