CREATE FUNCTION area(r numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT 3.14159 * r * r $$;
CREATE FUNCTION area(w numeric, h numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT w * h $$;
CREATE FUNCTION area(label text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'area of ' || label $$;
