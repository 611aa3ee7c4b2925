CREATE SCHEMA app;
CREATE TABLE app.p (id bigint UNIQUE, a integer NOT NULL, PRIMARY KEY (id, a));
CREATE TABLE app.c (id bigint PRIMARY KEY, pid bigint CONSTRAINT c_pid_fkey REFERENCES app.p (id));
