CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE DOMAIN app.obj2 AS integer CHECK (VALUE > 0);
