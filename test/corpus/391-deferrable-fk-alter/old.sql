CREATE SCHEMA app;
CREATE TABLE app.p (id bigint PRIMARY KEY, code text NOT NULL);
CREATE TABLE app.c (id bigint PRIMARY KEY, p_id bigint, code text);
ALTER TABLE app.c ADD CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES app.p (id);
