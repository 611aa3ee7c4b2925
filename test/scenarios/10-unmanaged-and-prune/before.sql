CREATE TABLE keep (id bigint PRIMARY KEY);
CREATE TABLE stray (id bigint);
CREATE SEQUENCE stray_seq;
CREATE FUNCTION stray_fn() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;
