CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY);
CREATE TABLE app.u (id int PRIMARY KEY, name text NOT NULL);
