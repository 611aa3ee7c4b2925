CREATE TABLE public.words (id bigint PRIMARY KEY, w text);
