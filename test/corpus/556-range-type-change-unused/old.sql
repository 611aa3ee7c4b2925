CREATE SCHEMA app;
CREATE TYPE app.floatrange AS RANGE (subtype = float8);
