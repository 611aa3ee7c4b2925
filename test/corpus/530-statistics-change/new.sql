CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE STATISTICS app.st (dependencies, mcv) ON a, b, c FROM app.t;
