CREATE TABLE warehouse (w_id integer PRIMARY KEY, name text);
CREATE TABLE district (d_w_id integer, d_id integer, PRIMARY KEY (d_w_id, d_id));
CREATE TABLE item (i_id integer PRIMARY KEY, price numeric);
INSERT INTO warehouse SELECT g, 'w' || g FROM generate_series(1, 20) g;
INSERT INTO district SELECT w, d FROM generate_series(1, 20) w, generate_series(1, 10) d;
INSERT INTO item SELECT g, g FROM generate_series(1, 100) g;
