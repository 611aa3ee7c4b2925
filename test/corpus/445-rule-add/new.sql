-- as ledgersmb writes them: a conditional INSTEAD rule, and one ALSO
CREATE TABLE public.att (id int, src int, dst int);
CREATE TABLE public.att_log (id int);
CREATE TABLE public.att_new (id int, src int);
CREATE RULE att_insert AS ON INSERT TO public.att WHERE src = 1 AND dst = 2 DO INSTEAD
  INSERT INTO public.att_log (id) VALUES (new.id);
CREATE RULE att_delete AS ON DELETE TO public.att DO ALSO DELETE FROM public.att_new WHERE att_new.id = old.id;
