-- The owner holds its privileges again: the plan GRANTs back what it had revoked from itself.
CREATE TABLE public.t (id int);
CREATE FUNCTION public.f() RETURNS int LANGUAGE sql AS 'SELECT 1';
