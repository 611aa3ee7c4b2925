CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer DEFAULT 2, b text DEFAULT now()::text);
