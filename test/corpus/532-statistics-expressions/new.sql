CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text);
CREATE MATERIALIZED VIEW app.mv AS SELECT id, a, b FROM app.t;
CREATE STATISTICS app.ex ON (a % 10), lower(b) FROM app.t;
CREATE STATISTICS app.on_mv (ndistinct) ON a, b FROM app.mv;
