// Assembles the plan document: the versioned, documented JSON every formatter and apply read.
import type { Problem } from '../errors.js';
import type { ClusterModel } from '../model/types.js';
import { collationInUseProblems, missingCollationProblems } from './checks/collation-problems.js';
import { serverInUseProblems } from './checks/server-problems.js';
import { brokenCallers, type RoutineSourceFile } from './checks/broken-callers.js';
import { grantTargetProblems } from './checks/grant-targets.js';
import { ownerTargetProblems } from './checks/owner-targets.js';
import { withExtensionPrivileges } from '../objects/extension-privileges.js';
import { withManifestPaths } from './problem-places.js';
import type { ResolvedManifest } from '../manifest/resolve.js';
import { diff } from './diff/diff.js';
import type { DiffProblem } from './problem.js';
import type { NotManaged } from '../model/not-managed.js';
import { keyHash, type RecordedObject } from './same-object.js';
import { objectKey } from '../objects/key.js';
import { ignoreMatcher } from './ignore.js';
import { notManagedTableProblems } from './checks/not-managed-tables.js';
import { foreignInheritsProblems } from './checks/foreign-inherits-problems.js';
import { typedTableProblems } from './checks/typed-table-problems.js';
import { newSubscriptionWarnings, subscriptionTableChecks } from './checks/subscription-problems.js';
import { rangeTypeProblems } from './checks/range-type-problems.js';
import {
  citusTablespaceProblems,
  withKeyTablespaces,
  withoutFollowedSequenceDrops,
  withTablespaceMoves,
} from './diff/tablespaces.js';
import { accessMethodProblems, baseTypeProblems, textSearchTemplateProblems } from './checks/server-code-problems.js';
import { opclassProblems } from './checks/opclass-problems.js';
import { triggerDependsProblems, routineDependsProblems } from './checks/trigger-depends-problems.js';
import { hazardsOf, needsCitus, objectOf, phaseOf, renderSql, summarize, tableOf } from './steps/step-spec.js';
import type { Hazard, Phase, Step } from './steps/steps.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import type { OnlineOptions } from './online.js';
import type { ShardCheck } from './diff/shard-check.js';
import { lockFootprintWarning, type LockSettings } from './checks/lock-footprint.js';
import { PINNED_SETTINGS } from './pinned-settings.js';
import { dictOf } from '../util/dict.js';
import type { PlanProof } from './proof.js';
import { stepLock, type StepLock, type TableSizes } from './lock-estimate.js';

/** Statements every plan transaction starts with, right after BEGIN. */
export const PREAMBLE: readonly string[] = [
  // Must come first: after a parallel create_distributed_table, later DDL in the same
  // transaction fails ("cannot run function command because there was a parallel operation").
  "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'",
  ...PINNED_SETTINGS.map(([name, value]) => `SET LOCAL ${name} TO ${value}`),
];

export interface PlanStep {
  readonly index: number; // 1-based
  readonly kind: Step['kind'];
  readonly phase: Phase;
  /** The object it changes, named as `unmanaged` and `ignore:` name it ("table app.t"). */
  readonly object: string;
  readonly summary: string;
  readonly hazards: readonly Hazard[];
  readonly sql: readonly string[];
  readonly step: Step;
  /**
   * For a step that copies or rewrites a table: the planner's estimate of what it holds on the
   * coordinator (a distributed table's rows are on the workers and not counted).
   */
  readonly size?: { readonly rows: number; readonly bytes: number };
  /** For a step that works through a table's rows: the lock it holds meanwhile and an estimate of its time. */
  readonly lock?: StepLock;
  /** For a routine body replaced or a definition created again: its changed lines (`- old`, `+ new`). */
  readonly diff?: readonly string[];
}

export type PlanSource =
  | { readonly kind: 'offline'; readonly description: string }
  | {
      readonly kind: 'live';
      readonly fingerprint: string;
      readonly objects?: Readonly<Record<string, string>>;
      readonly server: Readonly<Record<string, unknown>>;
    };

export interface PlanDocument {
  readonly format: 'citus-migrate.plan';
  readonly formatVersion: 1;
  readonly tool: { readonly name: string; readonly version: string };
  readonly source: PlanSource;
  /**
   * The manifest it was made from: `file` as the user named it (relative to the plan file's
   * folder when written with -o), `path` its absolute path where it was planned.
   */
  readonly manifest: { readonly file: string; readonly sha256: string; readonly path?: string };
  /** How it was asked for: apply recomputes the plan with the same options. */
  readonly options?: { readonly online: boolean; readonly shards?: boolean };
  readonly changes: boolean;
  readonly hazards: readonly Hazard[];
  readonly transaction: {
    readonly begin: 'BEGIN';
    readonly preamble: readonly string[];
    readonly steps: readonly PlanStep[];
    readonly commit: 'COMMIT';
  };
  /** Steps that cannot run in a transaction: run one at a time after COMMIT. */
  readonly afterCommit: readonly PlanStep[];
  readonly problems: readonly DiffProblem[];
  readonly warnings: readonly Problem[];
  /** Objects in the cluster the manifest does not declare (left alone unless prune). */
  readonly unmanaged: readonly string[];
  /** What the cluster holds of kinds citus-migrate does not model (foreign tables, rules, aggregates, table inheritance…; catalog-not-managed.ts): never compared. */
  readonly notManaged: readonly NotManaged[];
  /** What `plan --prove` found when it ran this plan on a copy of the database (apply/prove.ts). */
  readonly proof?: PlanProof;
  /** Objects defined by SQL this plan creates, with the hash of their declared definition: apply records what each became. */
  readonly recordObjects?: Readonly<Record<string, string>>;
}

export type { NotManaged };

const changedLines = (s: Step): readonly string[] | undefined =>
  s.kind === 'replace_routine' ? s.bodyDiff : s.kind === 'create_object' ? s.definitionDiff : undefined;

function toPlanStep(step: Step, index: number, actual: ClusterModel, sizes?: TableSizes): PlanStep {
  const hazards = hazardsOf(step);
  // What it holds while it works through the rows (a moment's lock is not shown).
  const lock = stepLock(step, actual, sizes);
  const table = tableOf(step);
  const size =
    (hazards.includes('copies_data') || hazards.includes('rewrites_table')) && table !== undefined
      ? actual.tables[table]?.size
      : undefined;
  return {
    index,
    kind: step.kind,
    phase: phaseOf(step),
    object: objectOf(step),
    summary: summarize(step),
    hazards,
    sql: renderSql(step),
    step,
    ...(size && size.bytes > 0 ? { size } : {}),
    ...(lock && lock.work !== 'catalog' ? { lock } : {}),
    ...(changedLines(step) ? { diff: changedLines(step) } : {}),
  };
}

/** Plans the change from `actual` to `desired`. Pure. */
export function buildPlan(input: {
  desired: ClusterModel;
  actual: ClusterModel;
  source: PlanSource;
  manifest: { file: string; sha256: string; path?: string };
  warnings: readonly Problem[];
  prune?: boolean;
  /** Recorded in the document as options.online (the per-table choice is the manifest's). */
  onlineAll?: boolean;
  citusInstalled?: boolean;
  notManaged?: readonly NotManaged[];
  ignore?: readonly string[];
  /** The schema an `ignore:` glob without one names (the manifest's defaults.schema; public). */
  defaultSchema?: string;
  recorded?: Readonly<Record<string, RecordedObject>>;
  /** The time time partitions are kept by. */
  now?: Date;
  /** Which tables change online (after COMMIT, without blocking writes). */
  online?: OnlineOptions;
  /** With `--shards`: the shards compared with their tables (diff/shard-check.ts). */
  shards?: ShardCheck;
  /** Distributed tables' sizes over their shards, for the steps' time estimates (lock-estimate.ts). */
  sizes?: TableSizes;
  /** The nodes' lock table settings: a warning when the transaction may overflow it. */
  locks?: LockSettings;
  /** The manifest's routine files by routine id: where a broken caller's line is. */
  routineSources?: ReadonlyMap<string, RoutineSourceFile>;
  /** The manifest's keys: each problem about a declared object gets its manifest path. */
  resolved?: ResolvedManifest;
}): PlanDocument {
  // The files' GRANTs on what the cluster's extensions made, read against what their scripts left.
  input = { ...input, desired: withExtensionPrivileges(input.desired, input.actual, input.defaultSchema) };
  const ignored = ignoreMatcher(input.ignore ?? [], input.defaultSchema);
  const result = diff(input.desired, input.actual, {
    prune: input.prune ?? false,
    citus: input.citusInstalled ?? true,
    ignore: ignored,
    recorded: input.recorded ?? {},
    ...(input.now ? { now: input.now } : {}),
    ...(input.online ? { online: input.online } : {}),
  });
  const steps = [
    ...withKeyTablespaces(withTablespaceMoves(withoutFollowedSequenceDrops(result.steps), input.actual), input.desired),
    ...(input.shards?.steps ?? []),
  ].map((s, i) => toPlanStep(s, i + 1, input.actual, input.sizes));
  const subscribed = subscriptionTableChecks(input.desired, input.actual);
  const problems = [
    ...result.problems,
    ...(input.shards?.problems ?? []),
    ...notManagedTableProblems(input.desired, input.notManaged ?? []),
    ...rangeTypeProblems(input.desired),
    ...accessMethodProblems(input.desired),
    ...citusTablespaceProblems(input.desired),
    ...baseTypeProblems(input.desired),
    ...(input.citusInstalled ? textSearchTemplateProblems(input.desired) : []),
    ...typedTableProblems(input.desired),
    ...subscribed.problems,
    ...foreignInheritsProblems(input.desired),
    ...opclassProblems(input.desired),
    ...triggerDependsProblems(input.desired),
    ...routineDependsProblems(input.desired, input.actual),
    ...brokenCallers(result.steps, input.desired, input.actual, {
      defaultSchema: input.defaultSchema ?? 'public',
      ...(input.routineSources ? { sources: input.routineSources } : {}),
    }),
  ];
  // Offline, what exists elsewhere is assumed present.
  if (input.source.kind === 'live') {
    // The collations the cluster has and those the manifest declares (created in the types phase).
    const collations = [...Object.values(input.actual.objects), ...Object.values(input.desired.objects)]
      .filter((o) => o.kind === 'collation')
      .map((o) => o.name);
    problems.push(...missingCollationProblems(result.steps, new Set(collations)));
    problems.push(...collationInUseProblems(result.steps, input.actual));
    problems.push(...serverInUseProblems(result.steps, input.notManaged ?? []));
    problems.push(...grantTargetProblems(input.desired, input.actual));
    problems.push(...ownerTargetProblems(input.desired, input.actual));
  }
  const needCitus = steps.filter((s) => needsCitus(s.kind));
  if (input.citusInstalled === false && needCitus.length > 0) {
    problems.push({
      code: 'citus_missing',
      object: 'extension citus',
      message: `the citus extension is not installed in this database; ${needCitus.length === 1 ? 'step' : 'steps'} ${needCitus.map((s) => s.index).join(', ')} need it (CREATE EXTENSION citus on every node, then citus_set_coordinator_host and citus_add_node)`,
    });
  }
  const later = (s: PlanStep): boolean => s.hazards.includes('non_transactional') || s.step.runAfterCommit === true;
  const inTx = steps.filter((s) => !later(s));
  const after = steps.filter(later);
  const hazards = [...new Set(steps.flatMap((s) => s.hazards))];
  const lockWarning = input.locks
    ? lockFootprintWarning(
        inTx.map((s) => s.step),
        input.desired,
        input.actual,
        input.locks,
      )
    : undefined;
  let recordObjects: Readonly<Record<string, string>> | undefined;
  return {
    format: 'citus-migrate.plan',
    formatVersion: 1,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    source: input.source,
    manifest: input.manifest,
    options: { online: input.onlineAll ?? false, ...(input.shards ? { shards: true } : {}) },
    changes: steps.length > 0,
    hazards,
    transaction: { begin: 'BEGIN', preamble: PREAMBLE, steps: inTx, commit: 'COMMIT' },
    afterCommit: after,
    problems: input.resolved ? withManifestPaths(problems, input.resolved) : problems,
    warnings: [
      ...input.warnings,
      ...(lockWarning ? [lockWarning] : []),
      ...subscribed.warnings,
      ...(input.citusInstalled ? newSubscriptionWarnings(input.desired, input.actual) : []),
    ],
    unmanaged: result.unmanaged,
    notManaged: (input.notManaged ?? []).filter((x) => !ignored(`${x.kind} ${x.name}`)),
    // What each declared definition becomes is recorded by apply (a comment set in place too).
    // Computed when first read (the JSON plan, apply while the server reads the catalog to
    // verify): each is a parse (~150 ms at 9,000 objects) a plan shown as text never needs.
    get recordObjects(): Readonly<Record<string, string>> {
      return (recordObjects ??= dictOf(
        result.steps.flatMap((s): [string, string][] =>
          s.kind === 'create_object' || (s.kind === 'alter_object' && s.objectKind === 'comment')
            ? [[s.object, keyHash(objectKey(s.statements, s.searchPath))]]
            : s.kind === 'rename_view' && s.record !== undefined
              ? [[s.object, s.record]]
              : [],
        ),
      ));
    },
  };
}
