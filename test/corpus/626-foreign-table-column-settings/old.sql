CREATE EXTENSION file_fdw;
CREATE SERVER s FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE ft (a int, b text) SERVER s OPTIONS (filename '/tmp/x.csv', format 'csv');
