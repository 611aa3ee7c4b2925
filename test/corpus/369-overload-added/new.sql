-- A second overload is added beside the first.
CREATE FUNCTION area(r numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT 3.14159 * r * r $$;
CREATE FUNCTION area(w numeric, h numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT w * h $$;
