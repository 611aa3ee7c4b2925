// One record per step kind (steps/spec-record.ts says what a record holds and how to add a kind),
// joined here, and what the rest of the code asks of a step: its phase, hazards, object, SQL,
// summary, and whether it needs Citus or touches shards.
import { PLAN_SEARCH_PATH, TOOL_SEARCH_PATH, pinLocal } from '../pinned-settings.js';
import { refId } from '../../model/object-ref.js';
import type { Hazard, Phase, Step, StepKind } from './steps.js';
import type { StepSpec, StepSpecs } from './spec-record.js';
import { CAST_SPECS } from './casts-spec.js';
import { CITUS_SPECS } from './citus-spec.js';
import { COLUMN_SPECS } from './columns-spec.js';
import { GRANT_SPECS } from './grants-spec.js';
import { KEY_SPECS } from './keys-spec.js';
import { OBJECT_SPECS } from './objects-spec.js';
import { PARTITION_SPECS } from './partitions-spec.js';
import { ROUTINE_SPECS } from './routines-spec.js';
import { SCHEMA_SPECS } from './schemas-spec.js';
import { SHARD_SPECS } from './shards-spec.js';
import { STORAGE_SPECS } from './storage-spec.js';
import { TABLE_SPECS } from './tables-spec.js';
import { RENAME_SPECS } from './renames-spec.js';

/** The groups of records, by meaning; each kind is in exactly one (test/unit/step-spec.test.ts). */
export const SPEC_GROUPS = {
  schemas: SCHEMA_SPECS,
  tables: TABLE_SPECS,
  renames: RENAME_SPECS,
  columns: COLUMN_SPECS,
  keys: KEY_SPECS,
  partitions: PARTITION_SPECS,
  storage: STORAGE_SPECS,
  citus: CITUS_SPECS,
  casts: CAST_SPECS,
  routines: ROUTINE_SPECS,
  objects: OBJECT_SPECS,
  grants: GRANT_SPECS,
  shards: SHARD_SPECS,
} as const;

/** Every step kind's record: a kind missing here is a compile error. */
export const STEP_SPEC: StepSpecs = {
  ...SCHEMA_SPECS,
  ...TABLE_SPECS,
  ...RENAME_SPECS,
  ...COLUMN_SPECS,
  ...KEY_SPECS,
  ...PARTITION_SPECS,
  ...STORAGE_SPECS,
  ...CITUS_SPECS,
  ...CAST_SPECS,
  ...ROUTINE_SPECS,
  ...OBJECT_SPECS,
  ...GRANT_SPECS,
  ...SHARD_SPECS,
};

/** Every step kind, in the records' order. */
export const STEP_KINDS = Object.keys(STEP_SPEC) as StepKind[];

// The record of a step's own kind; the mapped type cannot say that `s.kind` picks it.
const specOf = (s: Step): StepSpec<StepKind> => STEP_SPEC[s.kind] as unknown as StepSpec<StepKind>;

/** Where a step runs. */
export const phaseOf = (s: Step): Phase => specOf(s).phase(s);
/** What a step risks: its kind's hazards, and those of what it widens or runs (its security notes). */
export const hazardsOf = (s: Step): readonly Hazard[] => {
  const own = specOf(s).hazards(s);
  if (!s.security?.length) return own;
  return [...new Set<Hazard>([...own, ...s.security.map((n) => n.hazard)])];
};
/** The object a step changes, named as the plan's unmanaged list and `ignore:` globs name it. */
export const objectOf = (s: Step): string => specOf(s).object(s);
/** A step's one-line summary, with what it widens or runs (its security notes) after it. */
export const summarize = (s: Step): string => {
  const restored = s.restores
    ? `; gives back what Citus drops with the views it recreates: ${s.restores.objects.join(', ')}`
    : '';
  const own = `${specOf(s).summary(s)}${restored}`;
  return s.security?.length ? `${own}; ${s.security.map((n) => n.text).join('; ')}` : own;
};
/** Whether a step kind calls a Citus function. */
export const needsCitus = (kind: StepKind): boolean => STEP_SPEC[kind].needsCitus;
/** Whether a step kind creates, moves or rewrites shards whatever its hazards. */
export const touchesShards = (kind: StepKind): boolean => STEP_SPEC[kind].touchesShards;

/** A step's SQL, with the statements its common fields add (unsafe triggers, paused triggers). */
export const renderSql = (s: Step): readonly string[] => {
  const own = specOf(s).sql(s);
  const paused = s.pausedTriggers ? [...s.pausedTriggers.pause, ...own, ...s.pausedTriggers.resume] : own;
  const citus = STEP_SPEC[s.kind].needsCitus;
  // create_distributed_table_concurrently (and the other Citus steps that run after COMMIT) run
  // outside any transaction: SET LOCAL would not hold. (Citus records' hazards parse no SQL.)
  const outside =
    s.kind === 'distribute_table_concurrently' || (citus && specOf(s).hazards(s).includes('non_transactional'));
  const triggered = !s.unsafeTriggers
    ? paused
    : outside
      ? ['SET citus.enable_unsafe_triggers TO on', ...paused, 'SET citus.enable_unsafe_triggers TO off']
      : ['SET LOCAL citus.enable_unsafe_triggers TO on', ...paused, pinLocal('citus.enable_unsafe_triggers')];
  // Citus 13.2 refuses CREATE EXTENSION citus_columnar on the workers while the transaction's SET
  // LOCALs are propagated ("operation is not allowed on this node"): not for an extension's step.
  const extension =
    s.kind === 'create_columnar_extension' ||
    ((s.kind === 'create_object' || s.kind === 'alter_object') && s.objectKind === 'extension');
  const sql =
    extension && !outside
      ? ["SET LOCAL citus.propagate_set_commands TO 'none'", ...triggered, pinLocal('citus.propagate_set_commands')]
      : triggered;
  if (!citus) return sql;
  // What Citus dropped with the views it recreated, given back under the plan's search_path.
  const restored = s.restores?.statements ?? [];
  // Some of Citus's functions are PL/pgSQL that name theirs without a schema and pin no
  // search_path (run_command_on_workers calls array_agg), and the commands Citus sends the
  // workers name theirs without one too (worker_apply_shard_ddl_command(…)), run with the
  // search_path propagated from here: with public on it, a look-alike there would run with the
  // tool's privileges. Citus's calls run with pg_catalog alone, and without checking the bodies
  // of the functions Citus creates on the workers (a SQL function's body names the user's tables
  // as the plan's search_path finds them; the coordinator checked it when the plan created it).
  return outside
    ? [
        `SET search_path TO ${TOOL_SEARCH_PATH}`,
        'SET check_function_bodies TO off',
        ...sql,
        'SET check_function_bodies TO on',
        `SET search_path TO ${PLAN_SEARCH_PATH}`,
        ...restored,
      ]
    : [
        `SET LOCAL search_path TO ${TOOL_SEARCH_PATH}`,
        'SET LOCAL check_function_bodies TO off',
        ...sql,
        pinLocal('check_function_bodies'),
        pinLocal('search_path'),
        ...restored,
      ];
};

/** The table id a step changes ("app.t"), if its object is a table. */
export function tableOf(s: Step): string | undefined {
  return refId(objectOf(s), 'table');
}
