CREATE FUNCTION body_changes(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p * 2; END $$;
