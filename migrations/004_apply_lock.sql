-- The apply lock: an apply holds this table's one row FOR UPDATE, from a transaction on a
-- connection of its own, for as long as it runs. Nobody else is granted anything on it, so only
-- its owner (the role that applies) or a superuser can take the lock: a role that may merely
-- connect cannot hold every apply off, as it could with an advisory lock key. Created by the
-- first apply before it takes the lock (the same statements), and here for the record.
CREATE TABLE IF NOT EXISTS citus_migrate.apply_lock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id)
);
INSERT INTO citus_migrate.apply_lock DEFAULT VALUES ON CONFLICT DO NOTHING;
