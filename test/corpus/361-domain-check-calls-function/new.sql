-- A domain whose CHECK calls a function (sqldef's next_code case): the function comes first.
CREATE FUNCTION valid_code(c text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT c ~ '^[A-Z]{3}$' $$;
CREATE DOMAIN code AS text CHECK (valid_code(VALUE));
CREATE TABLE item (id integer PRIMARY KEY, c code);
