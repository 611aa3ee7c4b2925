CREATE SCHEMA app;
CREATE TABLE app.p (id bigint PRIMARY KEY, a integer, b integer, CONSTRAINT p_u UNIQUE (a, b));
CREATE TABLE app.c (id bigint PRIMARY KEY, pa integer, pb integer, CONSTRAINT c_fk FOREIGN KEY (pa, pb) REFERENCES app.p (a, b));
