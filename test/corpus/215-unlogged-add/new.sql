CREATE SCHEMA app;
CREATE TABLE app.keep (id int);
CREATE UNLOGGED TABLE app.t (id bigint PRIMARY KEY);
