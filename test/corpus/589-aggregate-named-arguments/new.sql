-- An aggregate whose argument has a name: named by its types on both sides (the catalog named it
-- with the argument's name, so a plan against itself created it again).
CREATE TABLE public.t (id integer);
CREATE AGGREGATE public.mysum(x integer) (SFUNC = int4pl, STYPE = int);
CREATE VIEW public.v AS SELECT public.mysum(id) FROM public.t;
