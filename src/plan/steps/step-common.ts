// The fields every step may carry besides its kind's own (steps/steps.ts's Step union).

/**
 * What a step widens (checks/access-notes.ts), or code of another role it runs with the applier's rights
 * (checks/foreign-code.ts): the step carries the note's hazard, and its summary says what.
 */
export interface SecurityNote {
  readonly hazard: 'widens_access' | 'runs_foreign_code';
  readonly text: string;
}

/** What every step may carry besides its kind's fields. */
export interface StepCommon {
  /**
   * Run after COMMIT, in a transaction of its own: it depends on an online step (a table
   * distributed concurrently) that cannot run in the plan's transaction.
   */
  readonly runAfterCommit?: boolean;
  /** Its tables have triggers: citus.enable_unsafe_triggers on for the step (checks/unsafe-triggers.ts). */
  readonly unsafeTriggers?: boolean;
  /** Pause the table's enabled triggers while Citus copies its rows (the copy fires them), then restore them. */
  readonly pausedTriggers?: { readonly pause: readonly string[]; readonly resume: readonly string[] };
  /** What it widens, or code of another role it runs: hazards, and said after its summary. */
  readonly security?: readonly SecurityNote[];
  /**
   * What Citus's function drops with the views it recreates (checks/citus-recreated.ts): the objects'
   * ids, and their statements, run right after the call.
   */
  readonly restores?: { readonly objects: readonly string[]; readonly statements: readonly string[] };
}
