CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text);
CREATE INDEX t_expr ON app.t (lower(a));
