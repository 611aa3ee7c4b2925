CREATE SCHEMA app;
CREATE TABLE app.doc (id bigint PRIMARY KEY, body text);
