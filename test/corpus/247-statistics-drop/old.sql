CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE STATISTICS app.st (dependencies) ON a, b FROM app.t;
