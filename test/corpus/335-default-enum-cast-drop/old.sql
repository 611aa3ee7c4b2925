CREATE SCHEMA app;
CREATE TYPE app.status AS ENUM ('active', 'gone');
CREATE TABLE app.t (id bigint PRIMARY KEY, s text DEFAULT 'active'::app.status);
