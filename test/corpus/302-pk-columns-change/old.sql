CREATE SCHEMA app;
CREATE TABLE app.t (id bigint, a integer NOT NULL, b text, CONSTRAINT t_pkey PRIMARY KEY (id));
