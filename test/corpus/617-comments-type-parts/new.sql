-- Comments on a composite type's columns and on a domain's constraints, which pg_dump dumps:
-- introspect dropped them without a word and a drift check said No changes.
CREATE DOMAIN posint AS integer CONSTRAINT positive CHECK (VALUE > 0);
COMMENT ON CONSTRAINT positive ON DOMAIN posint IS 'greater than zero';
CREATE TYPE pair AS (a int, b int);
COMMENT ON COLUMN pair.a IS 'first';
