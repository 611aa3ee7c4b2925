CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text);
CREATE INDEX t_a ON app.t (a);
ALTER TABLE app.t CLUSTER ON t_a;
