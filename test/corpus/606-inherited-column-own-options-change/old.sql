CREATE SCHEMA app;
CREATE TABLE app.par (a integer, b text);
CREATE TABLE app.ch (c integer) INHERITS (app.par);
ALTER TABLE ONLY app.ch ALTER COLUMN a SET STATISTICS 50;
ALTER TABLE ONLY app.ch ALTER COLUMN a SET (n_distinct = 7);
