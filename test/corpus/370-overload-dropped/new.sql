-- Two overloads of three stay: prune drops the other by its signature.
CREATE FUNCTION area(w numeric, h numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT w * h $$;
CREATE FUNCTION area(label text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'area of ' || label $$;
