CREATE FUNCTION inl(w integer) RETURNS integer LANGUAGE sql AS $$ SELECT w * 2 $$;
