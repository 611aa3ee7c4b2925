CREATE TABLE public.att (id int, src int, dst int);
CREATE TABLE public.att_log (id int);
