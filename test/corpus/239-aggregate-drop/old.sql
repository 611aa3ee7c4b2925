CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
-- An aggregate of * (managed, as plain ones are: corpus 490-492, 588).
CREATE AGGREGATE app.mycount(*) (SFUNC = int8inc, STYPE = int8, INITCOND = '0');
