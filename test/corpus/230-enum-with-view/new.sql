CREATE SCHEMA app;
CREATE TYPE app.st AS ENUM ('new', 'old');
CREATE TABLE app.t (id bigint PRIMARY KEY, s app.st);
CREATE VIEW app.v AS SELECT id FROM app.t WHERE s <> 'new';
