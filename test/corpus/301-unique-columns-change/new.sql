CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text);
ALTER TABLE app.t ADD CONSTRAINT t_u UNIQUE (a, b);
