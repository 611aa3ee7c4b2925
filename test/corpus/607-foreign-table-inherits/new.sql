CREATE SCHEMA app;
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE TABLE app.measurements (id bigint, at timestamptz, note text, unit text);
CREATE FOREIGN TABLE app.archive_2019 (source text) INHERITS (app.measurements) SERVER files OPTIONS (filename '/dev/null', format 'csv');
CREATE FOREIGN TABLE app.archive_2020 (note text NOT NULL) INHERITS (app.measurements) SERVER files OPTIONS (filename '/dev/null');
