-- Loads N warehouses into the TPC-C example (after `citus-migrate apply`):
--   psql -v ON_ERROR_STOP=1 -v warehouses=4 -f examples/tpcc/load.sql "$URL"
-- Sizes follow TPC-C per warehouse (10 districts, 3,000 customers per district, stock for every
-- item) with a smaller catalogue (10,000 items) and 100 initial orders per district, so it loads
-- in seconds; the last 30 orders of each district are undelivered (new_order).
\if :{?warehouses}
\else
  \set warehouses 2
\endif
BEGIN;
INSERT INTO item SELECT i, 'item-' || i, 1 + (i % 9900) / 100.0, 'data' FROM generate_series(1, 10000) i;
INSERT INTO warehouse SELECT w, 'w' || w, 0.1, 300000 FROM generate_series(1, :warehouses) w;
INSERT INTO district SELECT w, d, 'd' || d, 0.1, 30000, 101 FROM generate_series(1, :warehouses) w, generate_series(1, 10) d;
INSERT INTO customer SELECT w, d, c, 'first' || c, 'last' || (c % 1000), 'GC', 0.1, -10, 10, 1, 0, 'data'
  FROM generate_series(1, :warehouses) w, generate_series(1, 10) d, generate_series(1, 3000) c;
INSERT INTO stock SELECT w, i, 10 + (i % 91), 0, 0, 0, 'data' FROM generate_series(1, :warehouses) w, generate_series(1, 10000) i;
INSERT INTO orders SELECT w, d, o, 1 + (o * 37) % 3000, localtimestamp, CASE WHEN o <= 70 THEN 1 + o % 10 END, 10, 1
  FROM generate_series(1, :warehouses) w, generate_series(1, 10) d, generate_series(1, 100) o;
INSERT INTO new_order SELECT w, d, o FROM generate_series(1, :warehouses) w, generate_series(1, 10) d, generate_series(71, 100) o;
INSERT INTO order_line SELECT w, d, o, n, 1 + (o * n * 13) % 10000, w, CASE WHEN o <= 70 THEN localtimestamp END, 5, 10.5, 'dist-info'
  FROM generate_series(1, :warehouses) w, generate_series(1, 10) d, generate_series(1, 100) o, generate_series(1, 10) n;
COMMIT;
ANALYZE;
