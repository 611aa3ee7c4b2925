CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.a (id bigint PRIMARY KEY);
CREATE TABLE app.b (id bigint PRIMARY KEY, aid bigint REFERENCES app.a (id));
CREATE TABLE app.c (id bigint PRIMARY KEY, bid bigint REFERENCES app.b (id));
CREATE TABLE app.base (id bigint, note text);
CREATE TABLE app.derived (extra int) INHERITS (app.base);
CREATE VIEW app.v AS SELECT b.id, c.id AS cid FROM app.b JOIN app.c ON c.bid = b.id;
