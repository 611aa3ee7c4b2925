CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY);
CREATE TYPE app.floatrange AS RANGE (subtype = float8, subtype_diff = float8mi);
CREATE TYPE app.textr AS RANGE (subtype = text, collation = "C", multirange_type_name = app.textmr);
COMMENT ON TYPE app.floatrange IS 'float ranges';
CREATE TABLE app.u (id bigint PRIMARY KEY, r app.floatrange, m app.floatmultirange, x app.textr);
