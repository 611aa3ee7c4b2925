CREATE SCHEMA app;
CREATE SCHEMA audit;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE audit.log (id bigint PRIMARY KEY, body text);
