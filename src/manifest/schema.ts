// The manifest format v1 (README "The manifest") as one strict zod schema: unknown keys are
// errors. Cross-field rules (colocation, keys, foreign keys, routines, bench) live in resolve*.ts.
import { z } from 'zod';
import { identifierProblem } from '../sql/quote.js';
import { DURATION_PATTERN } from '../util/duration.js';

const ident = z.string().superRefine((s, ctx) => {
  const why = identifierProblem(s);
  if (why) ctx.addIssue({ code: 'custom', message: `name ${JSON.stringify(s)} ${why}` });
});
const shardCount = z.number().int().min(1, 'shard count must be between 1 and 64000').max(64000, 'shard count must be between 1 and 64000');
const duration = z.string().regex(DURATION_PATTERN, 'expected a duration such as 500ms, 30s, 5m or 1h');

const columnSpec = z.union([
  z.string().min(1),
  z.strictObject({
    type: z.string().min(1),
    not_null: z.boolean().optional(),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    /** GENERATED … AS IDENTITY (integer types). */
    identity: z.enum(['always', 'by default']).optional(),
    /** GENERATED ALWAYS AS (expression) STORED. */
    generated: z.string().min(1).optional(),
    /** A collation name, e.g. C or de-x-icu. */
    collation: z.string().min(1).optional(),
  }),
]);

const foreignKey = z.strictObject({
  columns: z.array(ident).min(1),
  references: z.string().min(1),
  ref_columns: z.array(ident).min(1),
  on_delete: z.enum(['no action', 'restrict', 'cascade', 'set null', 'set default']).optional(),
  on_update: z.enum(['no action', 'restrict', 'cascade', 'set null', 'set default']).optional(),
  name: ident.optional(),
});

const index = z.strictObject({
  columns: z.array(ident).min(1),
  unique: z.boolean().optional(),
  name: ident.optional(),
  using: z.enum(['btree', 'hash', 'gin', 'gist', 'brin', 'spgist']).optional(),
});

const table = z.strictObject({
  distributed_by: ident.optional(),
  colocation: ident.optional(),
  shard_count: shardCount.optional(),
  reference: z.boolean().optional(),
  local: z.boolean().optional(),
  single_shard: z.boolean().optional(),
  unlogged: z.boolean().optional(),
  columns: z.record(ident, columnSpec).optional(),
  primary_key: z.array(ident).min(1).optional(),
  unique: z.array(z.array(ident).min(1)).optional(),
  indexes: z.array(index).optional(),
  foreign_keys: z.array(foreignKey).optional(),
});

const sequence = z.strictObject({
  type: z.enum(['smallint', 'integer', 'bigint', 'int', 'int2', 'int4', 'int8']).optional(),
  cache: z.number().int().min(1).optional(),
  start: z.number().int().optional(),
  increment: z.number().int().refine((n) => n !== 0, 'increment must not be zero').optional(),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  cycle: z.boolean().optional(),
});

const routine = z.strictObject({
  file: z.string().min(1).optional(),
  signature: z.string().min(1).optional(),
  distributed_by: z.string().min(1).optional(),
  colocation: ident.optional(),
  colocate_with: z.string().min(1).optional(),
  force_delegation: z.boolean().optional(),
  /** Stays on the coordinator: Citus is not told about it (no create_distributed_function). */
  local: z.boolean().optional(),
});

// A value read from the database once before the run: { max: table.column } (HammerDB's driver
// reads max(w_id) the same way), or { min: … }; table is a manifest key, schema-qualified or not.
const fromData = z.union([z.strictObject({ max: z.string().min(1) }), z.strictObject({ min: z.string().min(1) })]);
const bound = z.union([z.number().int(), fromData]);
const param = z.union([
  z.strictObject({ int: z.tuple([bound, bound]) }),
  z.strictObject({ const: z.union([z.string(), z.number(), z.boolean(), fromData]) }),
  z.strictObject({ nurand: z.tuple([z.number().int().positive(), z.number().int(), z.number().int()]) }),
  z.strictObject({ pick: z.array(z.union([z.string(), z.number()])).min(1) }),
  z.strictObject({ text: z.tuple([z.number().int().min(0), z.number().int().min(0)]) }),
]);

const workload = z.strictObject({
  weight: z.number().positive('weight must be positive').default(1),
  sql: z.string().min(1),
  params: z.array(param).default([]),
  // auto: SELECT as a prepared statement, CALL with literals (delegated); a forced protocol is
  // for comparing (CALL with bind parameters is not delegated).
  protocol: z.enum(['auto', 'prepared', 'simple']).default('auto'),
});

const bench = z.strictObject({
  clients: z.number().int().min(1).max(10000).optional(),
  duration: duration.optional(),
  transactions: z.number().int().min(1).optional(),
  warmup: duration.optional(),
  workloads: z.record(ident, workload),
});

/** The whole manifest, version 1. */
export const manifestSchema = z.strictObject({
  version: z.literal(1),
  defaults: z.strictObject({
    schema: ident.default('public'),
    shard_count: shardCount.default(32),
  }).default({ schema: 'public', shard_count: 32 }),
  colocation: z.record(ident, z.strictObject({
    shard_count: shardCount.optional(),
    anchor: z.string().min(1).optional(),
  })).default({}),
  tables: z.record(z.string(), table).default({}),
  sequences: z.record(z.string(), sequence).default({}),
  routines: z.record(z.string(), routine).default({}),
  /** SQL files (or folders of them), relative to the manifest, declaring views, types, indexes, constraints, triggers, policies, comments and extensions. */
  sql: z.array(z.string().min(1)).default([]),
  bench: bench.optional(),
  prune: z.boolean().default(false),
  /** Globs over what a plan prints for objects it does not manage ("table staging.*", "trigger *"): neither listed nor pruned. */
  ignore: z.array(z.string().min(1)).default([]),
});

export type Manifest = z.output<typeof manifestSchema>;
export type ManifestTable = Manifest['tables'][string];
export type ManifestRoutine = Manifest['routines'][string];
export type ManifestColumn = NonNullable<ManifestTable['columns']>[string];
export type BenchParam = z.output<typeof param>;
export type FromData = z.output<typeof fromData>;
