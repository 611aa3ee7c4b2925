CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, CONSTRAINT a_pos CHECK (a > 0));
