-- A cycle: the table's default calls a SQL function whose body reads a view over the table. The
-- function is created with check_function_bodies off (as pg_dump does), then the table, then the view.
SET check_function_bodies = off;
CREATE FUNCTION next_ticket() RETURNS integer LANGUAGE sql AS $$ SELECT coalesce(max(n), 0) + 1 FROM ticket_numbers $$;
SET check_function_bodies = on;
CREATE TABLE ticket (n integer NOT NULL DEFAULT next_ticket() PRIMARY KEY, title text);
CREATE VIEW ticket_numbers AS SELECT n FROM ticket;
