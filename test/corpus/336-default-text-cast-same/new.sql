CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE TABLE app.u (id bigint PRIMARY KEY, s text DEFAULT 'x'::text, v varchar(10) DEFAULT 'y'::character varying, d date DEFAULT '2024-01-01'::date, n numeric DEFAULT 0);
