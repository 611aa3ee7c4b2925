CREATE TABLE public.voltages (volt integer, name text);
