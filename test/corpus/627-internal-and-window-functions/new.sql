-- Functions in LANGUAGE internal (a symbol of the server's own) and window functions (only C or
-- internal code can be one): declared by their definition, as pg_dump writes them, and made by
-- the plan (introspect declared an internal function as made elsewhere, and named a window
-- function as not managed).
CREATE FUNCTION abs4(integer) RETURNS integer LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE AS 'int4abs';
CREATE FUNCTION nth_value_def(val anyelement, n integer = 1) RETURNS anyelement
  LANGUAGE internal WINDOW IMMUTABLE STRICT AS 'window_nth_value';
COMMENT ON FUNCTION nth_value_def(anyelement, integer) IS 'nth_value, 1 by default';
REVOKE EXECUTE ON FUNCTION nth_value_def(anyelement, integer) FROM PUBLIC;
