CREATE SCHEMA app;
CREATE TABLE app.p (a int, b int, PRIMARY KEY (a, b));
CREATE TABLE app.c (id int PRIMARY KEY, a int, b int, CONSTRAINT c_a_b_fkey FOREIGN KEY (a, b) REFERENCES app.p (a, b));
CREATE TABLE app.d (id int PRIMARY KEY, a int, b int, CONSTRAINT d_a_b_fkey FOREIGN KEY (a, b) REFERENCES app.p (a, b) MATCH FULL);
