-- What each object defined by SQL (a view, a trigger…) became when citus-migrate last created
-- it: the hash of the declared definition and of the one PostgreSQL prints back. PostgreSQL
-- rewrites some definitions (a view's query above all), so without this a declaration written
-- by hand would never compare equal to the catalog and every plan would create it again.
CREATE TABLE IF NOT EXISTS citus_migrate.object_state (
  id text PRIMARY KEY,
  desired_hash text NOT NULL,
  actual_hash text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
