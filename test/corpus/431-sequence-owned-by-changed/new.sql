-- One sequence's owner moves to another column, another's is removed (OWNED BY NONE).
CREATE SCHEMA app;
CREATE TABLE app.a (id bigint PRIMARY KEY, n bigint);
CREATE SEQUENCE app.s1;
ALTER SEQUENCE app.s1 OWNED BY app.a.id;
CREATE SEQUENCE app.s2;
