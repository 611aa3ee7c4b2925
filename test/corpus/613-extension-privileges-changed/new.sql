-- What an extension's script granted (SELECT on pg_stat_statements to PUBLIC) and revoked
-- (EXECUTE on pg_stat_statements_reset from PUBLIC) is the baseline: the grants made since are
-- changed in place, granted to another role, revoked from PUBLIC and given the grant option.
CREATE EXTENSION pg_stat_statements;
DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO cm_monitor WITH GRANT OPTION;
REVOKE SELECT ON pg_stat_statements FROM PUBLIC;
GRANT SELECT ON pg_stat_statements TO cm_monitor;
GRANT USAGE ON LANGUAGE plpgsql TO cm_monitor WITH GRANT OPTION;
