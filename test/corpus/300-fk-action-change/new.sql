CREATE SCHEMA app;
CREATE TABLE app.p (id bigint PRIMARY KEY);
CREATE TABLE app.c (id bigint PRIMARY KEY, pid bigint REFERENCES app.p (id) ON DELETE CASCADE);
