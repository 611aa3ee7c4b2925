-- A new sequence owned by a column of a new table, used by another table's default.
CREATE SCHEMA app;
CREATE TABLE app.a (id bigint PRIMARY KEY);
CREATE SEQUENCE app.a_ids AS integer START WITH 7;
ALTER SEQUENCE app.a_ids OWNED BY app.a.id;
CREATE TABLE app.b (id bigint PRIMARY KEY DEFAULT nextval('app.a_ids'));
