CREATE TABLE public.t (id integer);
