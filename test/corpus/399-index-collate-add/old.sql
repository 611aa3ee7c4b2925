CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, name text, code varchar(20));
