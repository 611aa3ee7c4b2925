CREATE AGGREGATE public.mysum(integer) (SFUNC = int4pl, STYPE = integer);
CREATE AGGREGATE public.myany(text) (SFUNC = textcat, STYPE = text);
