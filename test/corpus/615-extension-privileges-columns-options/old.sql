CREATE EXTENSION pg_stat_statements;
DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT SELECT ON pg_stat_statements TO cm_monitor WITH GRANT OPTION;
GRANT SELECT (query) ON pg_stat_statements TO cm_monitor;
