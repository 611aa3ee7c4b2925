CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
CREATE TABLE app.st (id bigserial PRIMARY KEY);
GRANT USAGE, UPDATE ON SEQUENCE app.st_id_seq TO cm_reader;
