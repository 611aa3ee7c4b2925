CREATE TABLE public.t (id bigint GENERATED ALWAYS AS IDENTITY, v text);
