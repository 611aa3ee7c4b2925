CREATE SCHEMA app;
CREATE TABLE app.t (id bigint NOT NULL, a int);
