CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE app.ft (a text) SERVER files OPTIONS (filename '/dev/null');
