-- An extension the plan creates, with GRANT / REVOKE on what it makes: what its script grants is
-- known only once it is there, so the statements run as the files say after it (a REVOKE takes
-- what the script gave PUBLIC), and the plan after the apply is empty.
CREATE EXTENSION pg_stat_statements;
CREATE EXTENSION citext;
DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
REVOKE SELECT ON pg_stat_statements FROM PUBLIC;
GRANT SELECT ON pg_stat_statements TO cm_monitor;
GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO cm_monitor;
REVOKE ALL ON TYPE citext FROM PUBLIC;
GRANT USAGE ON TYPE citext TO cm_monitor;
