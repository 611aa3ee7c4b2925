-- A domain's CHECK added NOT VALID, as pg_dump writes it (CREATE DOMAIN takes no NOT VALID):
-- introspect wrote it inside CREATE DOMAIN, which PostgreSQL refuses, so the manifest was invalid.
CREATE DOMAIN pos AS integer CONSTRAINT nonzero CHECK (VALUE <> 0);
ALTER DOMAIN pos ADD CONSTRAINT positive CHECK (VALUE > 0) NOT VALID;
CREATE TABLE t (id int, p pos);
