CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, CONSTRAINT t_b_key UNIQUE (b), CONSTRAINT t_a_b UNIQUE NULLS NOT DISTINCT (a, b));
