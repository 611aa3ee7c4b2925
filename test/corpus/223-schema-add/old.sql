CREATE SCHEMA app;
CREATE TABLE app.t (id int);
