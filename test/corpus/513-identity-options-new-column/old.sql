CREATE TABLE public.voltages (name varchar NOT NULL);
