-- a rule on a view, one dropped
CREATE SCHEMA app;
CREATE TABLE app.t (id int, v text);
CREATE VIEW app.v AS SELECT id, v FROM app.t;
CREATE RULE v_upd AS ON UPDATE TO app.v DO INSTEAD UPDATE app.t SET v = new.v WHERE t.id = old.id;
