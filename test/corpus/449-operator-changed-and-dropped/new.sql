CREATE FUNCTION public.f(integer, integer) RETURNS bool LANGUAGE sql IMMUTABLE AS $$ SELECT $1 = $2 $$;
CREATE OPERATOR public.=== (FUNCTION = public.f, LEFTARG = integer, RIGHTARG = integer, COMMUTATOR = ===, HASHES);
