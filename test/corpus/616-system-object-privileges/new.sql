-- GRANT / REVOKE on pg_catalog's own functions, catalogs and their columns, other than initdb left
-- them (pg_init_privs): compared with that, as pg_dump dumps them (named as not managed before).
DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) TO cm_monitor;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_sleep(double precision) FROM PUBLIC;
GRANT SELECT (rolname, rolcanlogin) ON pg_catalog.pg_authid TO cm_monitor;
REVOKE SELECT ON pg_catalog.pg_settings FROM PUBLIC;
GRANT SELECT ON pg_catalog.pg_statistic TO cm_monitor WITH GRANT OPTION;
