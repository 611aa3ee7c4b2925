CREATE SCHEMA app;
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
ALTER DEFAULT PRIVILEGES IN SCHEMA app GRANT USAGE ON TYPES TO cm_reader;
CREATE TYPE app.status AS ENUM ('active', 'gone');
REVOKE USAGE ON TYPE app.status FROM cm_reader;
CREATE DOMAIN app.pos AS integer CHECK (VALUE > 0);
REVOKE USAGE ON DOMAIN app.pos FROM cm_reader;
CREATE TYPE app.pair AS (a integer, b integer);
REVOKE USAGE ON TYPE app.pair FROM cm_reader;
