CREATE TABLE public.plain (id integer);
