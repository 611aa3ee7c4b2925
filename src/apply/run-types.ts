// What an apply is given and what it gives back: its options, the events it reports while it
// runs (one union, ApplyEvent), and its typed result. Plain types, so the CLI's printer and an
// embedding program share them.
import type { LoadedManifest } from '../manifest/load.js';
import type { Hazard } from '../plan/steps/steps.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import type { SavedPlan } from './saved-plan.js';

/** A plan saved with `plan --format json` (read with readSavedPlan), and the manifest it was made from. */
export interface SavedPlanSource {
  readonly manifest: LoadedManifest;
  readonly savedPlan: SavedPlan;
  /** How the saved plan is named in messages (its file); default "the saved plan". */
  readonly planFile?: string;
}

/** What to apply: a loaded manifest (planned now), or a saved plan that must equal the plan made now. */
export type ApplySource = LoadedManifest | SavedPlanSource;

/**
 * Handles SIGINT / SIGTERM until the returned function is called (CommandIo's onInterrupt); a
 * second signal calls the handler with `again` (it must say what it has to at once), then exits.
 */
export type InterruptSubscriber = (handler: (signal: 'SIGINT' | 'SIGTERM', again?: boolean) => void) => () => void;

export interface ApplyRunOptions {
  /** Hazards allowed to run, as a Set or an array (the others refuse the plan, exit 4). */
  readonly allowHazards?: ReadonlySet<Hazard> | readonly Hazard[];
  /** Milliseconds the transaction's statements wait for a lock before a retry (default 5000). */
  readonly lockTimeoutMs?: number;
  /** Milliseconds a statement may run, 0 for no limit (default 0). */
  readonly statementTimeoutMs?: number;
  /** How many times a lock_timeout is retried (default 3). */
  readonly retries?: number;
  /** Milliseconds to wait for another apply's lock and for the cluster to be ready (default 60000). */
  readonly waitMs?: number;
  /** Run the transaction and roll it back: nothing stays, no history row. */
  readonly rehearse?: boolean;
  /** Every table that holds rows changes online (default: as the saved plan was made, else false). */
  readonly online?: boolean;
  /** Also repair shards that differ from their table (plan --shards), and verify them after (default: as the saved plan was made). */
  readonly shards?: boolean;
  /**
   * Asked once the plan is known and allowed, before anything runs; false ends the apply with
   * outcome `not_approved`. Absent: approved.
   */
  readonly approve?: (plan: PlanDocument, rehearse: boolean) => Promise<boolean>;
  /** Lets SIGINT / SIGTERM cancel the server's work and roll back (interrupt.ts); absent: never. */
  readonly onInterrupt?: InterruptSubscriber;
}

/**
 * Progress of an apply, one event at a time in the order it happens; `kind` says which. The CLI
 * prints these on stderr (commands/apply-events.ts); a program receives them through `onEvent`.
 */
export type ApplyEvent =
  /** Another session holds the apply lock (`holder` says who: backend, role, application, since when); waiting up to `waitMs`. */
  | { readonly kind: 'waiting_for_lock'; readonly holder: string; readonly waitMs: number }
  /** The plan moves or rewrites tables and the cluster is not ready; waiting up to `waitMs`. */
  | { readonly kind: 'waiting_for_cluster'; readonly reasons: readonly string[]; readonly waitMs: number }
  /** The transaction is about to start. */
  | {
      readonly kind: 'starting';
      readonly plan: PlanDocument;
      readonly rehearse: boolean;
      /** Steps to run: the transaction's and the after-COMMIT ones. */
      readonly steps: number;
      /** user@host:port/database. */
      readonly target: string;
    }
  /**
   * A step starts: in the transaction, or after COMMIT (`afterCommit`). `through`: the last step
   * sent with it in one message, when it is not the last (the server may be on any of them).
   */
  | {
      readonly kind: 'step_started';
      readonly step: PlanStep;
      readonly afterCommit: boolean;
      readonly through?: PlanStep;
    }
  /** A step ended without error (`ms`: its time; the transaction's steps end at COMMIT together). */
  | { readonly kind: 'step_finished'; readonly step: PlanStep; readonly afterCommit: boolean; readonly ms: number }
  /** No more steps run (the apply succeeded or failed). */
  | { readonly kind: 'steps_ended' }
  /** A lock_timeout rolled back (or a catalog read waited): retrying after the backoff. */
  | { readonly kind: 'retry'; readonly message: string }
  /** Something worth knowing that changes nothing (earlier applies that died, transactions in the way). */
  | { readonly kind: 'note'; readonly message: string }
  /** A signal arrived: the apply's statement is being cancelled. */
  | { readonly kind: 'interrupting'; readonly message: string };

/** Milliseconds per phase: connect_and_lock, read, plan_and_history, transaction, verify. */
export type ApplyTimings = Readonly<Record<string, number>>;

/** What an apply did. Failures throw (CmError subclasses with a code and exit code). */
export type ApplyResult =
  | { readonly outcome: 'nothing_to_do'; readonly plan: PlanDocument; readonly timings: ApplyTimings }
  | { readonly outcome: 'not_approved'; readonly plan: PlanDocument; readonly timings: ApplyTimings }
  | {
      readonly outcome: 'rehearsed';
      readonly plan: PlanDocument;
      /** The transaction's time (rolled back). */
      readonly ms: number;
      readonly timings: ApplyTimings;
    }
  | {
      readonly outcome: 'applied';
      readonly plan: PlanDocument;
      /** Transaction attempts (more than 1 after lock_timeout retries). */
      readonly attempts: number;
      /** The transaction's time, with its retries (the after-COMMIT steps are timed in afterCommit). */
      readonly ms: number;
      readonly afterCommit: readonly { index: number; summary: string; ms: number }[];
      /** The row in citus_migrate.applies. */
      readonly historyId: number;
      readonly timings: ApplyTimings;
    };

/** Whether the source is a saved plan (apply --plan). */
export const isSaved = (s: ApplySource): s is SavedPlanSource => 'savedPlan' in s;
