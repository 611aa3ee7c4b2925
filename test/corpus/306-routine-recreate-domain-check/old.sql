CREATE SCHEMA app;
CREATE FUNCTION app.ok(x integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT x > 0 $$;
CREATE DOMAIN app.pos AS integer CHECK (app.ok(VALUE));
