-- Pagila's film_in_stock: a SQL-language function whose body calls another function (PostgreSQL
-- parses the body at CREATE), declared first by name.
CREATE TABLE stock (id integer PRIMARY KEY, qty integer NOT NULL);
CREATE FUNCTION zz_in_stock(p integer) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT qty > 0 FROM stock WHERE id = p $$;
CREATE FUNCTION aa_count_in_stock() RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT count(*) FROM stock WHERE zz_in_stock(id) $$;
