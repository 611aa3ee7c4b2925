// The manifest format v1 (docs/guide/manifest.md, docs/manifest.md) as one strict zod schema: unknown keys are
// errors. Cross-field rules (colocation, keys, foreign keys, routines, bench) live in resolve*.ts.
import { z } from 'zod';
import { DEFAULT_SHARD_COUNT } from '../model/types.js';
import { bigAsText, cacheSize, duration, ident, sequenceOptions, shardCount } from './schema-parts.js';
import { partition, table } from './schema-table.js';

const sequence = z.strictObject({
  type: z
    .enum(['smallint', 'integer', 'bigint', 'int', 'int2', 'int4', 'int8'])
    .optional()
    .describe('AS type (default bigint)'),
  cache: cacheSize
    .optional()
    .describe(
      'CACHE: values each session takes at once (set before its table is distributed: Citus refuses ALTER SEQUENCE later)',
    ),
  ...sequenceOptions,
  unlogged: z
    .boolean()
    .optional()
    .describe(
      'CREATE UNLOGGED SEQUENCE: not written to the WAL (reset after a crash); one owned by a column follows its table instead',
    ),
  owned_by: z
    .strictObject({
      table: z.string().min(1).describe('a table the manifest declares'),
      column: ident.describe('one of its columns'),
    })
    .optional()
    .describe(
      "OWNED BY table.column: dropped with that column or table (a serial column's own sequence is owned by it without saying so)",
    ),
  renamed_from: ident
    .optional()
    .describe(
      "the sequence's former name, in its schema: while a sequence of that name exists and none of this one, the plan renames it (ALTER SEQUENCE … RENAME TO), keeping its value (a serial column's own sequence follows its table and column by itself)",
    ),
});

const routine = z.strictObject({
  file: z
    .string()
    .min(1)
    .optional()
    .describe('a .sql file (relative to the manifest) holding its one CREATE FUNCTION or CREATE PROCEDURE'),
  signature: z
    .string()
    .min(1)
    .optional()
    .describe('`name(type, …)` of a routine created elsewhere: only its distribution is managed'),
  distributed_by: z
    .string()
    .min(1)
    .optional()
    .describe('distribution argument, by name or `$N`: calls are delegated to the worker holding its shard'),
  colocation: ident.optional().describe('colocation group whose tables the routine is colocated with'),
  colocate_with: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a table (manifest key) to colocate with, instead of `colocation`; without `distributed_by`, a reference or single-shard table',
    ),
  force_delegation: z
    .boolean()
    .optional()
    .describe('delegate function calls inside transaction blocks too (Citus force_delegation)'),
  local: z
    .boolean()
    .optional()
    .describe(
      'stays on the coordinator: created with citus.enable_metadata_sync off, so Citus neither propagates nor records it',
    ),
});

// A value read from the database once before the run: { max: table.column } (HammerDB's driver
// reads max(w_id) the same way), or { min: … }; table is a manifest key, schema-qualified or not.
const fromData = z.union([z.strictObject({ max: z.string().min(1) }), z.strictObject({ min: z.string().min(1) })]);
const bound = z.union([z.number().int(), fromData]);
const param = z.union([
  z.strictObject({
    int: z
      .tuple([bound, bound])
      .describe(
        'a uniform integer in [lo, hi]; a bound may be `{max: table.column}` or `{min: table.column}`, read once before the run',
      ),
  }),
  z.strictObject({
    const: z
      .union([z.string(), z.number(), z.boolean(), fromData])
      .describe('always this value (or `{max: …}` / `{min: …}` of a column)'),
  }),
  z.strictObject({
    nurand: z
      .tuple([z.number().int().positive(), z.number().int(), z.number().int()])
      .describe("TPC-C's NURand(A, x, y): skewed integers in [x, y]"),
  }),
  z.strictObject({
    pick: z
      .array(z.union([z.string(), z.number()]))
      .min(1)
      .describe('one of these values, uniformly'),
  }),
  z.strictObject({
    text: z
      .tuple([z.number().int().min(0), z.number().int().min(0)])
      .describe('random letters, between min and max characters'),
  }),
]);

const workload = z.strictObject({
  weight: z.number().positive('weight must be positive').default(1).describe('share of the mix'),
  sql: z.string().min(1).describe('one statement, usually `SELECT f($1, …)` or `CALL p($1, …)`'),
  params: z
    .array(param)
    .default([])
    .describe(
      'one generator per placeholder, in order: `{int: [lo, hi]}`, `{const: v}`, `{nurand: [A, x, y]}`, `{pick: [a, b]}`, `{text: [min, max]}`; bounds may be `{max: table.column}` or `{min: …}`, read before the run',
    ),
  // auto: SELECT as a prepared statement, CALL with literals (delegated); a forced protocol is
  // for comparing (CALL with bind parameters is not delegated).
  protocol: z
    .enum(['auto', 'prepared', 'simple'])
    .default('auto')
    .describe(
      'auto: SELECT bound to a prepared statement (unnamed behind a transaction pooler), CALL with literals (delegated); prepared or simple force one',
    ),
});

const bench = z.strictObject({
  clients: z.number().int().min(1).max(10000).optional().describe('concurrent connections (default 8)'),
  duration: duration.optional().describe('measured time, e.g. `30s` (default 30s)'),
  transactions: z.number().int().min(1).optional().describe('measure this many transactions instead of a duration'),
  warmup: duration.optional().describe('time run before measuring (default 0s)'),
  workloads: z.record(ident, workload).describe('the mix, by name'),
});

const schemaSpec = z.strictObject({
  distributed: z
    .boolean()
    .optional()
    .describe(
      "schema-based sharding (citus_schema_distribute): each table in it is a single-shard table of the schema's own colocation group",
    ),
});

/** The whole manifest, version 1. */
export const manifestSchema = z.strictObject({
  version: z.literal(1).describe('the manifest format: 1'),
  defaults: z
    .strictObject({
      schema: ident.default('public').describe('schema of names written without one'),
      shard_count: shardCount
        .default(DEFAULT_SHARD_COUNT)
        .describe('shards of a new colocation group or distributed table'),
    })
    .default({ schema: 'public', shard_count: DEFAULT_SHARD_COUNT })
    .describe('defaults for the rest of the manifest'),
  colocation: z
    .record(
      ident,
      z
        .strictObject({
          shard_count: shardCount.optional().describe('shards of the group (default: defaults.shard_count)'),
          anchor: z
            .string()
            .min(1)
            .optional()
            .describe('the member table distributed first (default: the first member)'),
          isolated: z
            .array(z.union([z.number().int(), bigAsText]))
            .min(1)
            .optional()
            .describe(
              'tenants (distribution values of an integer column) on a shard of their own: isolate_tenant_to_new_shard, after COMMIT, for the whole group (CASCADE); Citus cannot merge a shard back, so one left out is named, never undone',
            ),
        })
        .describe('a colocation group'),
    )
    .default({})
    .describe('colocation groups by name: tables (and routines) in one group have their shards on the same nodes'),
  schemas: z
    .record(ident, schemaSpec.describe('a schema'))
    .default({})
    .describe(
      'schemas by name: `name: {}` declares a schema that holds nothing else the manifest declares (schemas of declared objects are created anyway); a schema in the database declared nowhere is listed as unmanaged, and dropped with prune once empty',
    ),
  tables: z
    .record(z.string(), table)
    .default({})
    .describe('tables by name (`name`, `schema.name`, parts may be `"quoted"`)'),
  sequences: z
    .record(z.string(), sequence)
    .default({})
    .describe("sequences by name (a serial column's own sequence too)"),
  routines: z
    .record(z.string(), routine)
    .default({})
    .describe(
      'functions and procedures by name, or by signature `name(type, …)` for overloads (one name, other argument types): each overload its own key',
    ),
  sql: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "SQL files or folders (relative to the manifest) declaring views, types, aggregates, operators, indexes, constraints (a partition's own keys too), triggers, rules, policies, comments, extensions, privileges and routines; a line `-- renamed_from: old_name` among the comments right above a `CREATE VIEW` or `CREATE MATERIALIZED VIEW` names its former name in its schema (folded to lower case unless double-quoted): while the cluster holds that view and not this one, the plan renames it (ALTER [MATERIALIZED] VIEW … RENAME TO), keeping its grants, comment, dependents and rows",
    ),
  bench: bench.optional().describe('the workload `bench` runs'),
  prune: z
    .boolean()
    .default(false)
    .describe(
      'drop what the database has and the manifest does not declare, the undeclared keys and foreign keys of tables declared with columns too (otherwise listed as unmanaged)',
    ),
  ignore: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'globs over what a plan prints for objects it does not manage (`table staging.*`, `* staging.*`, `trigger public.t.*`): neither listed nor pruned. Anchored on the schema: the part before the first dot matches the kind and the schema whole (`*` never matches that dot); a glob without a dot names objects of `defaults.schema` (`trigger *`) and objects in no schema (`extension *`)',
    ),
});

export type Manifest = z.output<typeof manifestSchema>;
export type ManifestTable = Manifest['tables'][string];
export type ManifestRoutine = Manifest['routines'][string];
export type ManifestPartition = z.output<typeof partition>;
export type ManifestColumn = NonNullable<ManifestTable['columns']>[string];
export type BenchParam = z.output<typeof param>;
export type FromData = z.output<typeof fromData>;
