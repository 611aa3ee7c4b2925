CREATE TABLE public.t (a int);
