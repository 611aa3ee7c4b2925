CREATE TABLE public.t (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text);
INSERT INTO public.t (v) VALUES ('a'), ('b'), ('c');
