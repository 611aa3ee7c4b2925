CREATE SCHEMA app;
CREATE EXTENSION postgres_fdw;
CREATE SERVER remote TYPE 'pg' VERSION '15' FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'db2', dbname 'app', port '5433');
CREATE FOREIGN TABLE app.r (id bigint) SERVER remote OPTIONS (table_name 'r');
COMMENT ON SERVER remote IS 'the reporting copy';
