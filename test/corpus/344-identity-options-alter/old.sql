CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE TABLE app.i (id bigint GENERATED ALWAYS AS IDENTITY, b text);
