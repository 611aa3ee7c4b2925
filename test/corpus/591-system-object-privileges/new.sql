-- PostgreSQL's init_privs.sql: grants on pg_catalog's own columns and functions, which pg_dump
-- dumps: compared with what initdb left (named as not managed before).
CREATE TABLE public.t (a int);
GRANT SELECT (rolname, rolsuper) ON pg_catalog.pg_authid TO CURRENT_USER;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) FROM pg_monitor;
