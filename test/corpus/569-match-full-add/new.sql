CREATE SCHEMA app;
CREATE TABLE app.p (a int, b int, PRIMARY KEY (a, b));
CREATE TABLE app.c (id int PRIMARY KEY, a int, b int, FOREIGN KEY (a, b) REFERENCES app.p (a, b) MATCH FULL ON DELETE CASCADE);
