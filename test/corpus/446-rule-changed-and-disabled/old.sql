CREATE TABLE public.att (id int, src int, dst int);
CREATE TABLE public.att_log (id int);
CREATE RULE att_insert AS ON INSERT TO public.att WHERE src = 1 DO INSTEAD INSERT INTO public.att_log (id) VALUES (new.id);
CREATE RULE att_update AS ON UPDATE TO public.att DO INSTEAD NOTHING;
