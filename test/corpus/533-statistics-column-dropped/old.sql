CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c integer);
CREATE STATISTICS app.st ON a, b FROM app.t;
