CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer DEFAULT 1, b text);
