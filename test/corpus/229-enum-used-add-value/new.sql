CREATE SCHEMA app;
CREATE TYPE app.st AS ENUM ('new', 'doing', 'done');
CREATE TABLE app.t (id bigint PRIMARY KEY, s app.st);
