-- icingadb's LIKE on anynonarray, used by a view; an operator pair naming each other
CREATE FUNCTION public.anynonarrayliketext(anynonarray, text) RETURNS bool LANGUAGE plpgsql IMMUTABLE
  AS $$ BEGIN RETURN $1::TEXT LIKE $2; END; $$;
CREATE OPERATOR ~~ (LEFTARG = anynonarray, RIGHTARG = text, PROCEDURE = anynonarrayliketext);
CREATE TABLE public.host (name varchar(255), tags text);
CREATE VIEW public.web_hosts AS SELECT name FROM public.host WHERE 42 ~~ '4%';
CREATE FUNCTION public.texteq_ci(text, text) RETURNS bool LANGUAGE sql IMMUTABLE AS $$ SELECT lower($1) = lower($2) $$;
CREATE FUNCTION public.textne_ci(text, text) RETURNS bool LANGUAGE sql IMMUTABLE AS $$ SELECT lower($1) <> lower($2) $$;
CREATE OPERATOR public.=~ (FUNCTION = public.texteq_ci, LEFTARG = text, RIGHTARG = text, COMMUTATOR = =~, NEGATOR = !=~, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR public.!=~ (FUNCTION = public.textne_ci, LEFTARG = text, RIGHTARG = text, COMMUTATOR = !=~, NEGATOR = =~);
CREATE OPERATOR public.@@@ (FUNCTION = pg_catalog.int4um, RIGHTARG = integer);
