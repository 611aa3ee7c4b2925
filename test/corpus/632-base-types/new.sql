-- Base types as PostgreSQL's regression SQL makes them (create_type): a shell first, as pg_dump
-- writes it, input and output functions of the server's own code, the type, a table column and a
-- comment; one with receive and send functions and options, written without its shell; a lone
-- shell type. Named as not managed before 2026-11-30.
CREATE TYPE int42;
CREATE FUNCTION int42_in(cstring) RETURNS int42 LANGUAGE internal IMMUTABLE STRICT AS 'int4in';
CREATE FUNCTION int42_out(int42) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'int4out';
CREATE TYPE int42 (INTERNALLENGTH = 4, INPUT = int42_in, OUTPUT = int42_out, ALIGNMENT = int4, DEFAULT = 42, PASSEDBYVALUE);
COMMENT ON TYPE int42 IS 'an int4 by another name';
CREATE FUNCTION text_w_default_in(cstring) RETURNS text_w_default LANGUAGE internal IMMUTABLE STRICT AS 'textin';
CREATE FUNCTION text_w_default_out(text_w_default) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'textout';
CREATE TYPE text_w_default (INTERNALLENGTH = variable, INPUT = text_w_default_in, OUTPUT = text_w_default_out,
  ALIGNMENT = int4, STORAGE = extended, CATEGORY = 'S', DEFAULT = 'zippo', COLLATABLE = true);
CREATE TABLE default_test (f1 text_w_default, f2 int42);
CREATE TYPE lonely;
