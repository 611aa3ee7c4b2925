CREATE SCHEMA app;
CREATE TABLE app.p (id bigint PRIMARY KEY, code text NOT NULL);
CREATE TABLE app.c (id bigint PRIMARY KEY, p_id bigint, code text);
