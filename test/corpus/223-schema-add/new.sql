CREATE SCHEMA app;
CREATE TABLE app.t (id int);
CREATE SCHEMA other;
CREATE TABLE other.t (id int);
