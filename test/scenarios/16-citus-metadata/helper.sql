CREATE FUNCTION helper(x integer) RETURNS integer LANGUAGE sql AS $$ SELECT x + 1 $$;
