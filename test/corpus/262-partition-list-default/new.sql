CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE app.r (region text NOT NULL, n int) PARTITION BY LIST (region);
CREATE TABLE app.r_eu PARTITION OF app.r FOR VALUES IN ('de', 'fr', 'it''s');
CREATE TABLE app.r_rest PARTITION OF app.r DEFAULT;
