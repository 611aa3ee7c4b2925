CREATE SCHEMA app;
CREATE TABLE app.t (id serial PRIMARY KEY, n smallserial, body text);
