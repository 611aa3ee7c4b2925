// What the parts of the diff share (diff/diff.ts folds them in order, diff/parts.ts lists them): the two
// models, the options, the steps and problems so far, and the facts earlier parts found that later
// ones read. A part returns what it adds; it mutates nothing it is given. Pure.
import type { ClusterModel, Routine, Sequence, Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { RecordedObject } from '../same-object.js';
import type { IgnoreMatcher } from '../ignore.js';
import type { OnlineOptions } from '../online.js';
import type { Step } from '../steps/steps.js';

export interface DiffOptions {
  readonly prune?: boolean;
  readonly citus?: boolean;
  readonly ignore?: IgnoreMatcher;
  readonly recorded?: Readonly<Record<string, RecordedObject>>;
  /** The time time partitions are kept by (default: now; the diff reads no clock when given). */
  readonly now?: Date;
  /** Which tables change online: then copies, index builds and validations go after COMMIT. */
  readonly online?: OnlineOptions;
}

/** What a part finds for the parts after it. */
export interface DiffFacts {
  /** Ids of the tables this plan creates. */
  readonly created: ReadonlySet<string>;
  /** The table structure steps: made by `tables`, emitted after the foreign keys dropped before them. */
  readonly tableSteps: readonly Step[];
  /** The keys `tables` drops (to add again): the foreign keys on them go first. */
  readonly keyDrops: readonly Step[];
  /** What the cluster holds that the manifest does not declare. */
  readonly found: { readonly tables: Table[]; readonly routines: Routine[]; readonly sequences: Sequence[] };
  /** Constraints dropped by this plan (constraintKey): no longer unmanaged, nor a link between tables. */
  readonly replaced: ReadonlySet<string>;
  /** Foreign keys to add, once the tables they join are distributed. */
  readonly foreignKeyAdds: readonly Step[];
  /** Routines dropped, and former signatures replaced (old id → new). */
  readonly routines: { readonly dropped: ReadonlySet<string>; readonly moved: ReadonlyMap<string, string> };
  /** Partitions attached, and what the layout names as unmanaged. */
  readonly layout: { readonly attached: readonly string[]; readonly unmanaged: readonly string[] };
  /** Tables this plan moves or rewrites (a routine colocated with one is distributed again). */
  readonly touched: ReadonlySet<string>;
  /** What the object diff names as unmanaged. */
  readonly objectsUnmanaged: readonly string[];
  /** Schemas named as unmanaged. */
  readonly schemasUnmanaged: readonly string[];
}

export interface DiffContext {
  readonly desired: ClusterModel;
  /** The cluster as the steps so far leave it (renamed, partitions detached). */
  readonly actual: ClusterModel;
  /** What earlier applies recorded of SQL definitions (carried over by renames). */
  readonly recorded: Readonly<Record<string, RecordedObject>>;
  readonly prune: boolean;
  readonly citus: boolean;
  readonly ignore: IgnoreMatcher;
  readonly now: Date;
  readonly steps: readonly Step[];
  readonly problems: readonly DiffProblem[];
  readonly facts: Partial<DiffFacts>;
}

/** What a part adds: steps, problems, facts, and the cluster as its steps leave it. */
export interface PartResult {
  readonly steps?: readonly Step[];
  readonly problems?: readonly DiffProblem[];
  readonly facts?: Partial<DiffFacts>;
  readonly actual?: ClusterModel;
  readonly recorded?: Readonly<Record<string, RecordedObject>>;
}

export interface DiffPart {
  readonly name: string;
  readonly run: (ctx: DiffContext) => PartResult;
}

/** A fact an earlier part found; a part that reads one before it is made is a bug in PARTS' order. */
export function fact<K extends keyof DiffFacts>(ctx: DiffContext, key: K): DiffFacts[K] {
  const value = ctx.facts[key];
  if (value === undefined) throw new Error(`diff: the fact ${key} is read before the part that finds it`);
  return value as DiffFacts[K];
}

/** The context after a part: its additions appended, its facts merged. */
export function withPart(ctx: DiffContext, r: PartResult): DiffContext {
  return {
    ...ctx,
    ...(r.actual ? { actual: r.actual } : {}),
    ...(r.recorded ? { recorded: r.recorded } : {}),
    steps: r.steps?.length ? [...ctx.steps, ...r.steps] : ctx.steps,
    problems: r.problems?.length ? [...ctx.problems, ...r.problems] : ctx.problems,
    facts: r.facts ? { ...ctx.facts, ...r.facts } : ctx.facts,
  };
}

/** Runs `f` with a problems array of its own (the parts' older signature), returning both. */
export function collecting<T>(f: (problems: DiffProblem[]) => T): [T, DiffProblem[]] {
  const problems: DiffProblem[] = [];
  return [f(problems), problems];
}
