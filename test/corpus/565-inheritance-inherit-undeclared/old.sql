CREATE SCHEMA app;
CREATE TABLE app.parent (id int, a text);
CREATE TABLE app.child (id int, a text, b int);
