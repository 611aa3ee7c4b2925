-- A SQL-language function whose body reads a view: the view comes first.
CREATE TABLE orders (id integer PRIMARY KEY, total numeric NOT NULL);
CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 100;
CREATE FUNCTION big_order_count() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT count(*) FROM big_orders $$;
