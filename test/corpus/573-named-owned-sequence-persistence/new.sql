CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.u (id serial, v int);
ALTER SEQUENCE app.u_id_seq SET UNLOGGED;
