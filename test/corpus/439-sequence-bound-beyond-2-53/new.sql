-- A bound a manifest number cannot hold exactly (beyond 2^53 - 1): named, not carried.
CREATE SCHEMA app;
CREATE SEQUENCE app.big MAXVALUE 9223372036854775806;
