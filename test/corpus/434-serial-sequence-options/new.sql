-- A serial's own sequence with its START / MINVALUE / MAXVALUE set (rows numbered from 1000).
CREATE SCHEMA app;
CREATE TABLE app.t (id serial PRIMARY KEY, n smallserial, body text);
ALTER SEQUENCE app.t_id_seq MINVALUE 0 START WITH 1000 MAXVALUE 99999999;
ALTER SEQUENCE app.t_n_seq INCREMENT BY 10;
