CREATE TABLE public.other (id integer);
