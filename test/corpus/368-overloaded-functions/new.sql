-- Overloaded routines (Kea's lease4_stat…): one name, other argument types, each its own key.
CREATE FUNCTION area(r numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT 3.14159 * r * r $$;
CREATE FUNCTION area(w numeric, h numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT w * h $$;
CREATE FUNCTION area(label text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN 'area of ' || label; END $$;
CREATE PROCEDURE log_area(r numeric) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE '%', area(r); END $$;
CREATE PROCEDURE log_area(label text) LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE '%', area(label); END $$;
