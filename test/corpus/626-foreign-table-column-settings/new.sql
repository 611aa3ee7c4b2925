-- A foreign table's column SET STATISTICS and SET (…), which pg_dump dumps: managed (introspect
-- dropped them without a word and a drift check said No changes).
CREATE EXTENSION file_fdw;
CREATE SERVER s FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE ft (a int, b text) SERVER s OPTIONS (filename '/tmp/x.csv', format 'csv');
ALTER FOREIGN TABLE ft ALTER COLUMN a SET STATISTICS 5;
ALTER FOREIGN TABLE ft ALTER COLUMN b SET (n_distinct = 2);
