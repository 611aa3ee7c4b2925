CREATE FUNCTION f(a int) RETURNS int
LANGUAGE sql AS $$ SELECT a -- été
$$;
