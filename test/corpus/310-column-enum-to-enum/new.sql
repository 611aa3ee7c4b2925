CREATE SCHEMA app;
CREATE TYPE app.s1 AS ENUM ('a', 'b');
CREATE TYPE app.s2 AS ENUM ('a', 'b', 'c');
CREATE TABLE app.t (id bigint PRIMARY KEY, s app.s2);
