CREATE SCHEMA app;
CREATE TYPE app.status AS ENUM ('active', 'closed');
CREATE TABLE app.t (id bigint PRIMARY KEY, s app.status DEFAULT 'active', n integer, m app.status);
