-- serial -> bigserial and back: the sequence's AS type changes with the column.
CREATE SCHEMA app;
CREATE TABLE app.t (id bigserial PRIMARY KEY, body text);
CREATE TABLE app.u (id serial PRIMARY KEY, body text);
