CREATE FUNCTION area(r numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT 3.14159 * r * r $$;
