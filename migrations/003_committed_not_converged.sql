-- An apply whose transaction was committed but whose verification (planning again) still found
-- steps, or could not be made: it changed the cluster, and it did not end where the manifest says.
ALTER TABLE citus_migrate.applies
  DROP CONSTRAINT applies_outcome_check,
  ADD CONSTRAINT applies_outcome_check
    CHECK (outcome IN ('running', 'success', 'failed', 'aborted', 'nothing_to_do', 'committed_not_converged'));
