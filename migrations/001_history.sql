-- citus-migrate's own schema: every apply is recorded here. Applied by the tool itself, in
-- order, under its advisory lock; each file's checksum is kept so an edited file is noticed.
CREATE SCHEMA IF NOT EXISTS citus_migrate;

CREATE TABLE IF NOT EXISTS citus_migrate.applies (
  id               bigserial PRIMARY KEY,
  started_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  duration_ms      integer,
  outcome          text NOT NULL CHECK (outcome IN ('running', 'success', 'failed', 'aborted', 'nothing_to_do')),
  plan_fingerprint text NOT NULL,
  manifest_sha256  text NOT NULL,
  manifest_file    text NOT NULL,
  steps            jsonb NOT NULL,
  tool_version     text NOT NULL,
  db_user          text NOT NULL DEFAULT current_user,
  client_host      text,
  backend_pid      integer NOT NULL DEFAULT pg_backend_pid(),
  error            jsonb
);
