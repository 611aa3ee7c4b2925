-- Privileges on aggregates, managed as a function's (2026-11-30; dropped without a word before:
-- a copy kept EXECUTE for PUBLIC): EXECUTE revoked from PUBLIC on one, from its owner on another.
CREATE AGGREGATE public.mysum(integer) (SFUNC = int4pl, STYPE = integer);
REVOKE EXECUTE ON FUNCTION public.mysum(integer) FROM PUBLIC;
CREATE AGGREGATE public.myany(text) (SFUNC = textcat, STYPE = text);
REVOKE EXECUTE ON FUNCTION public.myany(text) FROM CURRENT_USER;
