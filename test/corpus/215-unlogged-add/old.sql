CREATE SCHEMA app;
CREATE TABLE app.keep (id int);
