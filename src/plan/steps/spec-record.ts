// What the code knows about one step kind, in one record: where it runs, what it risks, what it
// changes, its SQL and its summary, and whether it needs Citus or touches shards. The records
// are grouped by meaning in this folder (tables-spec.ts, columns-spec.ts, keys-spec.ts,
// citus-spec.ts…) and joined in step-spec.ts, whose type names every kind: a kind without a full
// record, or a record without one of these fields, is a compile error.
//
// To add a step kind:
//   1. add its variant to the Step union (steps.ts, or its group's part: layout.ts, objects.ts…);
//   2. add its record to the group file it belongs with (or a new group file, spread into
//      STEP_SPEC in step-spec.ts), typed `StepSpecs<'its_kind' | …>`;
//   3. add it to the table test test/unit/step-spec.test.ts if it needs Citus or touches shards.
import type { Hazard, Phase, StepKind, StepOf } from './steps.js';

/** Everything the planner, the formatters and apply know about steps of kind K. */
export interface StepSpec<K extends StepKind> {
  /** Where it runs (PHASES order); inside a phase, steps keep the manifest's declaration order. */
  readonly phase: (s: StepOf<K>) => Phase;
  /** What it risks: apply refuses it without --allow-hazards. */
  readonly hazards: (s: StepOf<K>) => readonly Hazard[];
  /** The object it changes, as the plan's unmanaged list and `ignore:` globs name it ("table app.t"). */
  readonly object: (s: StepOf<K>) => string;
  /** Its SQL statements, without trailing semicolons. Every name and value goes through quote.ts. */
  readonly sql: (s: StepOf<K>) => readonly string[];
  /** One line for a human. */
  readonly summary: (s: StepOf<K>) => string;
  /** It calls a Citus function: a problem on a database without the citus extension. */
  readonly needsCitus: boolean;
  /** It creates, moves or rewrites shards whatever its hazards: apply's cluster guard waits for a ready cluster. */
  readonly touchesShards: boolean;
}

/** The records of a group of kinds: one full record for each. */
export type StepSpecs<K extends StepKind = StepKind> = { readonly [P in K]: StepSpec<P> };

/** The flags of a kind that runs plain PostgreSQL SQL and leaves shards alone. */
export const PLAIN = { needsCitus: false, touchesShards: false } as const;
/** A kind that calls a Citus function but creates, moves or rewrites no shard by itself. */
export const CITUS = { needsCitus: true, touchesShards: false } as const;
/** A kind that calls a Citus function that creates, moves or rewrites shards. */
export const SHARDS = { needsCitus: true, touchesShards: true } as const;
