CREATE SCHEMA app;
CREATE TABLE app.x (id int);
CREATE TABLE app.p (id bigint PRIMARY KEY);
CREATE TABLE app.c (id bigint PRIMARY KEY, p bigint REFERENCES app.p (id) ON UPDATE SET NULL);
