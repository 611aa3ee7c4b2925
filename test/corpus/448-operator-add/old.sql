CREATE TABLE public.host (name varchar(255), tags text);
