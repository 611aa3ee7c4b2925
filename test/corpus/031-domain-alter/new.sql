CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE DOMAIN app.obj1 AS integer NOT NULL DEFAULT 1 CONSTRAINT pos CHECK (VALUE > 10);
