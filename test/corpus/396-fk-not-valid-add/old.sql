CREATE SCHEMA app;
CREATE TABLE app.p (id bigint PRIMARY KEY, code text NOT NULL);
CREATE TABLE app.c (id bigint PRIMARY KEY, p_id bigint, code text);
INSERT INTO app.p VALUES (1, 'a');
INSERT INTO app.c VALUES (1, 1, 'x'), (2, 99, 'orphan');
