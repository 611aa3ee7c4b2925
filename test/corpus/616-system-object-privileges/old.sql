DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT EXECUTE ON FUNCTION pg_catalog.pg_sleep(double precision) TO cm_monitor;
