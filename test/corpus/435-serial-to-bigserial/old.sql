CREATE SCHEMA app;
CREATE TABLE app.t (id serial PRIMARY KEY, body text);
CREATE TABLE app.u (id bigserial PRIMARY KEY, body text);
