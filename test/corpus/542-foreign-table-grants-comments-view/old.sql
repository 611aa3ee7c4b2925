CREATE SCHEMA app;
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE app.f (id bigint, name text) SERVER files OPTIONS (filename '/dev/null');
