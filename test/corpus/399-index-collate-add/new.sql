CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, name text, code varchar(20));
CREATE INDEX t_name_c ON app.t (name COLLATE "C");
CREATE INDEX t_code_name ON app.t (code, name COLLATE "C");
CREATE INDEX t_code ON app.t (code);
