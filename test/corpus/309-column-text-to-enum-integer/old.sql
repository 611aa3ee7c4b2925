CREATE SCHEMA app;
CREATE TYPE app.status AS ENUM ('active', 'closed');
CREATE TABLE app.t (id bigint PRIMARY KEY, s text DEFAULT 'active', n text, m text);
