-- Default privileges in a schema, in a plan that also creates an extension: they were taken for
-- grants on what the new extension would make and run without their ALTER DEFAULT PRIVILEGES
-- (GRANT SELECT ON TABLES TO …: "relation tables does not exist").
CREATE EXTENSION citext;
CREATE SCHEMA other;
ALTER DEFAULT PRIVILEGES FOR ROLE CURRENT_USER IN SCHEMA other GRANT SELECT ON TABLES TO PUBLIC;
