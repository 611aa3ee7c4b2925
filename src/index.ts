// The library: what the CLI does, as documented functions (README, "Use it from code"). The
// commands in src/commands only parse flags, call these and print.

// The front door: a database and a manifest in, typed results out; progress through events.
export { plan, apply, type PlanFunctionOptions } from './api/plan-apply.js';
export { bench, type BenchFunctionOptions } from './api/bench.js';
export { introspect, history, historyEntry, type IntrospectResult } from './api/read.js';
export { analyze } from './api/analyze.js';
export type { DatabaseTarget, ManifestInput } from './api/target.js';
export type {
  ApplyEvents,
  ApplyResult,
  ApplyRunOptions,
  ApplySource,
  ApplyTimings,
  SavedPlanSource,
} from './apply/run-types.js';
export { readSavedPlan, type SavedPlan } from './apply/saved-plan.js';
export { parseHazards } from './apply/hazards.js';
export type { ApplyDetail, HistoryRow } from './own/history.js';
export type { BenchEvents, BenchResult, BenchRunOptions } from './bench/run.js';
export { readBaseline } from './bench/baseline.js';
export type { BenchReport } from './bench/report.js';
export type { Tick as BenchTick } from './bench/runner.js';
export type { AnalysisDocument, RoutineAnalysis } from './locality/analyze.js';
export { connectionTarget, type ConnectionTarget } from './db/connect.js';
export { clusterUp, clusterDown, clusterStatus } from './cluster/cluster-api.js';
export type {
  ClusterNote,
  ClusterPlace,
  ClusterStatusResult,
  ClusterUpOptions,
  ClusterUpResult,
  NodeStatus,
} from './cluster/cluster-types.js';

// The pieces: load and validate, diff, plan, format.
export { loadManifest, loadManifestText, type LoadedManifest } from './manifest/load.js';
export { manifestSchema, type Manifest } from './manifest/schema.js';
export { diff, offlineBaseline } from './plan/diff.js';
export { planOffline, planLive } from './plan/from-manifest.js';
export { buildPlan, PREAMBLE, type PlanDocument, type PlanStep } from './plan/plan.js';
export type { PlanProof } from './plan/proof.js';
export { formatPlan, PLAN_FORMATS, type PlanFormat } from './format/index.js';
export { HAZARDS, type Hazard } from './plan/steps.js';
export { hammerdbManifest, type HammerdbVariant } from './hammerdb/layout.js';
export * from './errors.js';
export * from './model/types.js';
export { quoteIdent, quoteLiteral, quoteQualified } from './sql/quote.js';

// The CLI's commands, callable in-process with a CommandIo.
export { runCli } from './cli-program.js';
export { validate, validateCommand } from './commands/validate.js';
export { planCommand } from './commands/plan.js';
export { hammerdbCommand, hammerdbPlan } from './commands/hammerdb.js';
export { initCommand } from './commands/init.js';
export type { CommandIo } from './commands/io.js';
