CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
-- An aggregate of * (plain aggregates are managed: corpus 490-492; these are not).
CREATE AGGREGATE app.mycount(*) (SFUNC = int8inc, STYPE = int8, INITCOND = '0');
