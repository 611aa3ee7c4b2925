-- GRANT / REVOKE on what an extension made and on a procedural language, other than the
-- extension's script or initdb left them: named as not managed (they were dropped without a word:
-- a copy's file_fdw had no USAGE for PUBLIC, a drift check said No changes).
CREATE EXTENSION file_fdw;
GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO PUBLIC;
REVOKE EXECUTE ON FUNCTION public.file_fdw_validator(text[], oid) FROM PUBLIC;
REVOKE USAGE ON LANGUAGE sql FROM PUBLIC;
