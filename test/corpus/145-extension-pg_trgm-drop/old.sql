CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE EXTENSION pg_trgm;
CREATE INDEX trgm ON app.t USING gin (b gin_trgm_ops);
