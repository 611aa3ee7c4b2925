CREATE SCHEMA app;
CREATE TABLE app.history (id bigint PRIMARY KEY, body text);
