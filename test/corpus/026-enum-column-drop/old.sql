CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TYPE app.mood AS ENUM ('sad', 'happy');
CREATE TABLE app.obj1 (id int PRIMARY KEY, m app.mood);
