CREATE SCHEMA app;
CREATE FUNCTION app.ok(y integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT y > 0 $$;
CREATE DOMAIN app.pos AS integer CHECK (app.ok(VALUE));
CREATE TABLE app.t (id bigint PRIMARY KEY, n app.pos);
