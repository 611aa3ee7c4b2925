CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE RULE r AS ON UPDATE TO app.t DO INSTEAD NOTHING;
