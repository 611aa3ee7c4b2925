CREATE PROCEDURE neword(no_w_id integer, no_d_id integer, INOUT total numeric) LANGUAGE plpgsql AS $$ BEGIN total := 0; END $$;
