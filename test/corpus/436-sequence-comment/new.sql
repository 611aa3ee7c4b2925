-- Comments on a standalone sequence and on a serial's own sequence.
CREATE SCHEMA app;
CREATE TABLE app.t (id serial PRIMARY KEY);
CREATE SEQUENCE app.gone;
CREATE SEQUENCE app.ticket;
COMMENT ON SEQUENCE app.ticket IS 'ticket numbers';
COMMENT ON SEQUENCE app.t_id_seq IS 'rows of t';
