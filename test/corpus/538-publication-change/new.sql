CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE TABLE app.u (id bigint PRIMARY KEY, a integer);
CREATE PUBLICATION pub FOR TABLE app.t, app.u WITH (publish = 'insert, update');
