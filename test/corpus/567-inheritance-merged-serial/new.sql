CREATE SCHEMA app;
CREATE TABLE app.base (id serial PRIMARY KEY, at timestamptz DEFAULT now(), v int);
CREATE TABLE app.item (id integer NOT NULL, name text, at timestamptz DEFAULT '2020-01-01', PRIMARY KEY (id)) INHERITS (app.base);
CREATE TABLE app.leaf (v int DEFAULT 7) INHERITS (app.item);
