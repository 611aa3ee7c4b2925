CREATE EXTENSION pg_stat_statements;
DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO cm_reader;
GRANT USAGE ON LANGUAGE plpgsql TO cm_reader;
