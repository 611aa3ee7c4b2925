CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a int, b text);
CREATE INDEX t_a ON app.t (a);
CREATE UNIQUE INDEX t_b ON app.t (b);
