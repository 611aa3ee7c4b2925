CREATE SCHEMA app;
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE TABLE app.measurements (id bigint, at timestamptz, note text);
CREATE FOREIGN TABLE app.archive_2019 (source text) INHERITS (app.measurements) SERVER files OPTIONS (filename '/dev/null');
