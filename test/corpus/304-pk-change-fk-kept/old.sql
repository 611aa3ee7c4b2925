CREATE SCHEMA app;
CREATE TABLE app.p (id bigint PRIMARY KEY, a integer NOT NULL);
CREATE TABLE app.c (id bigint PRIMARY KEY, pid bigint CONSTRAINT c_pid_fkey REFERENCES app.p (id));
