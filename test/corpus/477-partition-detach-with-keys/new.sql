CREATE SCHEMA app;
CREATE TABLE app.r (id bigint PRIMARY KEY);
CREATE TABLE app.p (d date NOT NULL, id bigint NOT NULL REFERENCES app.r (id), x int CHECK (x > 0), PRIMARY KEY (d, id)) PARTITION BY RANGE (d);
CREATE INDEX p_x ON app.p (x);
-- detached: it keeps its key and foreign key, not its table's CHECK nor index
CREATE TABLE app.p1 (d date NOT NULL, id bigint NOT NULL, x int, PRIMARY KEY (d, id), CONSTRAINT p_id_fkey FOREIGN KEY (id) REFERENCES app.r (id));
