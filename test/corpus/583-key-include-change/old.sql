CREATE TABLE public.t (c1 int, c2 int, c3 int, PRIMARY KEY (c1) INCLUDE (c2), UNIQUE (c2) INCLUDE (c3));
