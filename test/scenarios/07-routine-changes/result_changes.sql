CREATE FUNCTION result_changes(p integer) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;
