CREATE SCHEMA app;
CREATE TABLE app.t (id serial PRIMARY KEY);
CREATE SEQUENCE app.gone;
COMMENT ON SEQUENCE app.gone IS 'to be dropped';
