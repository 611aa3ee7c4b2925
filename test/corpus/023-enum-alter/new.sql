CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TYPE app.obj1 AS ENUM ('w', 'x', 'v', 'y', 'z');
