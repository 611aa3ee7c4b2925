CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, c integer);
CREATE STATISTICS app.st ON a, c FROM app.t;
