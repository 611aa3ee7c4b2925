CREATE SCHEMA app;
CREATE TABLE app.base (id serial PRIMARY KEY, at timestamptz DEFAULT now());
