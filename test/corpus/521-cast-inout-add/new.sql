CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TYPE app.mood AS ENUM ('a', 'b');
CREATE CAST (text AS app.mood) WITH INOUT AS ASSIGNMENT;
