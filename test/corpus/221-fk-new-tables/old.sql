CREATE SCHEMA app;
CREATE TABLE app.x (id int);
