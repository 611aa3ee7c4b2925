-- detached: its own default and NOT NULL stay, as the table's
CREATE SCHEMA app;
CREATE TABLE app.m (d date NOT NULL, id bigint NOT NULL, v text DEFAULT 'p', w int) PARTITION BY RANGE (d);
CREATE TABLE app.m1 (d date NOT NULL, id bigint NOT NULL, v text DEFAULT 'one', w int NOT NULL);
