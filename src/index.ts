// The library API: every command is a function here; the CLI is a thin layer over them.
export { runCli } from './cli-program.js';
export { validate, validateCommand } from './commands/validate.js';
export { planCommand } from './commands/plan.js';
export { planOffline } from './plan/from-manifest.js';
export { hammerdbCommand, hammerdbPlan } from './commands/hammerdb.js';
export { initCommand } from './commands/init.js';
export type { CommandIo } from './commands/io.js';
export { loadManifest, loadManifestText } from './manifest/load.js';
export { manifestSchema, type Manifest } from './manifest/schema.js';
export { diff, offlineBaseline } from './plan/diff.js';
export { buildPlan, PREAMBLE, type PlanDocument, type PlanStep } from './plan/plan.js';
export { formatPlan, PLAN_FORMATS, type PlanFormat } from './format/index.js';
export { hammerdbManifest, type HammerdbVariant } from './hammerdb/layout.js';
export * from './errors.js';
export * from './model/types.js';
export { quoteIdent, quoteLiteral, quoteQualified } from './sql/quote.js';
