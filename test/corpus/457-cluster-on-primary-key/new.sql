CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a text);
ALTER TABLE app.t CLUSTER ON t_pkey;
