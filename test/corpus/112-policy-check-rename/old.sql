CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
ALTER TABLE app.t ENABLE ROW LEVEL SECURITY;
CREATE POLICY obj1 ON app.t FOR INSERT TO cm_reader WITH CHECK (a > 0);
