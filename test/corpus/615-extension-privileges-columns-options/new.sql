-- Column privileges on an extension's view, and a grant option taken back (REVOKE GRANT OPTION
-- FOR): compared with what the extension's script left.
CREATE EXTENSION pg_stat_statements;
DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT SELECT (userid, calls) ON pg_stat_statements TO cm_monitor;
GRANT INSERT ON pg_stat_statements TO cm_monitor;
REVOKE ALL ON pg_stat_statements FROM PUBLIC;
