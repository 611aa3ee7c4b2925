-- A base type's definition changed: PostgreSQL drops one only with its functions (and every
-- column of it): a plan problem, never a DROP TYPE … CASCADE.
CREATE FUNCTION int42_in(cstring) RETURNS int42 LANGUAGE internal IMMUTABLE STRICT AS 'int4in';
CREATE FUNCTION int42_out(int42) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'int4out';
CREATE TYPE int42 (INTERNALLENGTH = 4, INPUT = int42_in, OUTPUT = int42_out, ALIGNMENT = int4, PASSEDBYVALUE, DEFAULT = 42);
