CREATE SCHEMA app;
CREATE DOMAIN app.pos AS integer CHECK (VALUE > 0);
CREATE TABLE app.t (id bigint PRIMARY KEY, p app.pos);
