CREATE DOMAIN posint AS integer CONSTRAINT positive CHECK (VALUE > 0);
CREATE TYPE pair AS (a int, b int);
COMMENT ON COLUMN pair.b IS 'second';
