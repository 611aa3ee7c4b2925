-- A comment on an operator (a prefix one too), which pg_dump dumps: managed (introspect dropped it
-- without a word and a drift check said No changes).
CREATE FUNCTION eq2(int, int) RETURNS bool LANGUAGE sql IMMUTABLE AS 'SELECT $1 = $2';
CREATE OPERATOR === (FUNCTION = eq2, LEFTARG = int, RIGHTARG = int);
COMMENT ON OPERATOR === (int, int) IS 'equal, spelt long';
CREATE FUNCTION neg(bigint) RETURNS bool LANGUAGE sql IMMUTABLE AS 'SELECT $1 = 0';
CREATE OPERATOR !== (FUNCTION = neg, RIGHTARG = int8);
COMMENT ON OPERATOR !== (NONE, int8) IS 'prefix';
