-- INCLUDE changed: the key is dropped and added again.
CREATE TABLE public.t (c1 int, c2 int, c3 int, PRIMARY KEY (c1) INCLUDE (c2, c3), CONSTRAINT t_c2_c3_key UNIQUE (c2));
