// The library: what the CLI does, as documented functions (README, "Use it from code"). The
// commands in src/commands only parse flags, call these and print. This is the whole public
// surface: test/unit/api-surface.test.ts holds it name by name, so a change to it is deliberate.

// The front door: a database and a manifest in, typed results out; progress as events, one union
// per workflow (ApplyEvent, BenchEvent) given to one handler.
export { plan, apply, type PlanFunctionOptions } from './api/plan-apply.js';
export { bench, type BenchFunctionOptions } from './api/bench.js';
export { introspect, history, historyEntry, type IntrospectResult } from './api/read.js';
export { analyze } from './api/analyze.js';
export type { DatabaseTarget, ManifestInput } from './api/target.js';
export type {
  ApplyEvent,
  ApplyResult,
  ApplyRunOptions,
  ApplySource,
  ApplyTimings,
  SavedPlanSource,
} from './apply/run-types.js';
export { readSavedPlan, type SavedPlan } from './apply/saved-plan.js';
export { parseHazards } from './apply/hazards.js';
export type { ApplyDetail, HistoryRow } from './own/history.js';
export type { BenchEvent, BenchResult, BenchRunOptions } from './bench/run.js';
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

// The pieces a program needs around them: the manifest loaded and validated, the plan formatted,
// the hazards named, HammerDB's layout, the errors with their codes and exit codes.
export { loadManifest, loadManifestText, type LoadedManifest } from './manifest/load.js';
export { manifestSchema, type Manifest } from './manifest/schema.js';
export { type PlanDocument, type PlanStep } from './plan/plan.js';
export type { PlanProof } from './plan/proof.js';
export { formatPlan, PLAN_FORMATS, type PlanFormat } from './format/index.js';
export { HAZARDS, type Hazard } from './plan/steps/steps.js';
export { hammerdbManifest, type HammerdbVariant } from './hammerdb/layout.js';
export * from './errors.js';
