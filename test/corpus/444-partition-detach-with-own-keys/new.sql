-- detached: the partition's own key, unique constraint and foreign key stay, as the table's
CREATE SCHEMA app;
CREATE TABLE app.r (id bigint PRIMARY KEY);
CREATE TABLE app.p (d date NOT NULL, id bigint NOT NULL, x int) PARTITION BY RANGE (d);
CREATE TABLE app.p1 (d date NOT NULL, id bigint NOT NULL, x int,
  CONSTRAINT p1_pkey PRIMARY KEY (id), CONSTRAINT p1_x_key UNIQUE (x) DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT p1_id_fkey FOREIGN KEY (id) REFERENCES app.r (id) ON DELETE CASCADE);
