// The manifest format v1 (README "The manifest") as one strict zod schema: unknown keys are
// errors. Cross-field rules (colocation, keys, foreign keys, routines, bench) live in resolve*.ts.
import { z } from 'zod';
import { DEFAULT_SHARD_COUNT } from '../model/types.js';
import { identifierProblem } from '../sql/quote.js';
import { DURATION_PATTERN } from '../util/duration.js';

const ident = z.string().superRefine((s, ctx) => {
  const why = identifierProblem(s);
  if (why) ctx.addIssue({ code: 'custom', message: `name ${JSON.stringify(s)} ${why}` });
});
const shardCount = z
  .number()
  .int()
  .min(1, 'shard count must be between 1 and 64000')
  .max(64000, 'shard count must be between 1 and 64000');
const duration = z.string().regex(DURATION_PATTERN, 'expected a duration such as 500ms, 30s, 5m or 1h');

const columnSpec = z
  .union([
    z.string().min(1),
    z
      .strictObject({
        type: z
          .string()
          .min(1)
          .describe('PostgreSQL type, read by its parser: `bigint`, `numeric(12,2)`, `text[]`, `bigserial`'),
        not_null: z.boolean().optional().describe('NOT NULL (primary key columns are NOT NULL anyway)'),
        default: z
          .union([z.string(), z.number(), z.boolean()])
          .optional()
          .describe("DEFAULT expression, read by the parser (`now()`, `0`, `'new'`)"),
        identity: z.enum(['always', 'by default']).optional().describe('GENERATED … AS IDENTITY (integer types)'),
        generated: z.string().min(1).optional().describe('GENERATED ALWAYS AS (expression) STORED'),
        collation: z
          .string()
          .min(1)
          .optional()
          .describe("a collation other than the type's default, e.g. `C` or `de-x-icu`"),
      })
      .describe('a column with options'),
  ])
  .describe('a column: its type as a string (`bigint`), or an object with options');

const fkAction = z.enum(['no action', 'restrict', 'cascade', 'set null', 'set default']);
const foreignKey = z.strictObject({
  columns: z.array(ident).min(1).describe('referencing columns'),
  references: z.string().min(1).describe('the referenced table: a manifest key'),
  ref_columns: z.array(ident).min(1).describe('referenced columns (a primary key or unique key of that table)'),
  on_delete: fkAction.optional().describe('ON DELETE action'),
  on_update: fkAction.optional().describe('ON UPDATE action'),
  name: ident.optional().describe("constraint name (default: PostgreSQL's `<table>_<column>_fkey`)"),
});

const index = z.strictObject({
  columns: z.array(ident).min(1).describe('indexed columns, ascending (other shapes: CREATE INDEX in a `sql:` file)'),
  unique: z.boolean().optional().describe('UNIQUE (on a distributed table it must include the distribution column)'),
  name: ident.optional().describe("index name (default: PostgreSQL's `<table>_<columns>_idx`)"),
  using: z.enum(['btree', 'hash', 'gin', 'gist', 'brin', 'spgist']).optional().describe('index method (default btree)'),
});

const boundValue = z.union([z.string(), z.number()]);
const boundValues = z.union([boundValue, z.array(boundValue).min(1)]);
const partition = z
  .strictObject({
    from: boundValues
      .optional()
      .describe('RANGE: lower bound, included (one value per key column; `MINVALUE` for unbounded)'),
    to: boundValues.optional().describe('RANGE: upper bound, excluded (`MAXVALUE` for unbounded)'),
    in: z.array(boundValue).min(1).optional().describe('LIST: the values it holds'),
    modulus: z.number().int().min(1).optional().describe('HASH: the modulus'),
    remainder: z.number().int().min(0).optional().describe('HASH: the remainder'),
    default: z.literal(true).optional().describe('the DEFAULT partition: rows no other partition takes'),
    access_method: z.enum(['heap', 'columnar']).optional().describe('`columnar` for a columnar partition'),
  })
  .describe('a partition: `{from, to}`, `{in}`, `{modulus, remainder}` or `{default: true}`');

const interval = z
  .string()
  .regex(
    /^\s*\d+\s*(minute|hour|day|week|month|year)s?\s*$/i,
    'expected an interval such as `1 day`, `6 hours`, `1 week` or `1 month`',
  );
const timePartitions = z
  .strictObject({
    interval: interval.describe('width of each partition (`1 hour`, `1 day`, `1 week`, `1 month`)'),
    premake: z
      .number()
      .int()
      .min(1)
      .max(10000)
      .default(7)
      .describe('intervals created ahead of now (create_time_partitions)'),
    retention: interval
      .optional()
      .describe('partitions older than this are dropped (drop_old_time_partitions): hazard drops_data'),
    columnar_after: interval
      .optional()
      .describe('partitions older than this become columnar (alter_old_partitions_set_access_method, after COMMIT)'),
  })
  .describe("partitions kept by time with Citus's functions; a RANGE partition_by on one timestamp or date column");

const table = z.strictObject({
  distributed_by: ident.optional().describe('distribution column: a hash-distributed table (create_distributed_table)'),
  colocation: ident.optional().describe('colocation group (a key of `colocation`) the table shares shards with'),
  shard_count: shardCount
    .optional()
    .describe('shards of a table in no colocation group (default: defaults.shard_count)'),
  reference: z.boolean().optional().describe('a reference table: a copy on every node (create_reference_table)'),
  local: z.boolean().optional().describe('stays a plain table on the coordinator (the default without distributed_by)'),
  single_shard: z
    .boolean()
    .optional()
    .describe('a single-shard distributed table (create_distributed_table with no column)'),
  citus_local: z
    .boolean()
    .optional()
    .describe("added to Citus's metadata on the coordinator (citus_add_local_table_to_metadata)"),
  cascade_via_foreign_keys: z
    .boolean()
    .optional()
    .describe('citus_local: also add the tables linked to it by foreign keys (cascade_via_foreign_keys)'),
  unlogged: z.boolean().optional().describe('CREATE UNLOGGED TABLE'),
  online: z
    .boolean()
    .optional()
    .describe(
      'change it without blocking writes once it holds rows: create_distributed_table_concurrently, CREATE INDEX CONCURRENTLY, foreign keys and CHECKs of sql: files NOT VALID then VALIDATE (after COMMIT)',
    ),
  access_method: z
    .enum(['heap', 'columnar'])
    .optional()
    .describe('table access method: `columnar` (citus_columnar) stores columns compressed; default heap'),
  partition_by: z.string().min(1).optional().describe('PARTITION BY: `range (ts)`, `list (region)` or `hash (id)`'),
  partitions: z
    .record(ident, partition)
    .optional()
    .describe("partitions by name, in the table's schema (a distributed table's partitions are distributed with it)"),
  time_partitions: timePartitions.optional(),
  columns: z
    .record(ident, columnSpec)
    .optional()
    .describe(
      'columns in order; without it the table is created elsewhere and only its distribution and declared keys are managed',
    ),
  primary_key: z.array(ident).min(1).optional().describe('primary key columns'),
  unique: z.array(z.array(ident).min(1)).optional().describe('unique constraints, each a list of columns'),
  indexes: z.array(index).optional().describe('plain indexes'),
  foreign_keys: z
    .array(foreignKey)
    .optional()
    .describe('foreign keys (Citus: between colocated tables on the distribution column, or to a reference table)'),
});

const sequence = z.strictObject({
  type: z
    .enum(['smallint', 'integer', 'bigint', 'int', 'int2', 'int4', 'int8'])
    .optional()
    .describe('AS type (default bigint)'),
  cache: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'CACHE: values each session takes at once (set before its table is distributed: Citus refuses ALTER SEQUENCE later)',
    ),
  start: z.number().int().optional().describe('START WITH'),
  increment: z
    .number()
    .int()
    .refine((n) => n !== 0, 'increment must not be zero')
    .optional()
    .describe('INCREMENT BY (not zero)'),
  min: z.number().int().optional().describe('MINVALUE'),
  max: z.number().int().optional().describe('MAXVALUE'),
  cycle: z.boolean().optional().describe('CYCLE'),
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
    .describe('a table (manifest key) to colocate with, instead of `colocation`'),
  force_delegation: z
    .boolean()
    .optional()
    .describe('delegate function calls inside transaction blocks too (Citus force_delegation)'),
  local: z
    .boolean()
    .optional()
    .describe('stays on the coordinator: Citus is not told about it (no create_distributed_function)'),
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
        })
        .describe('a colocation group'),
    )
    .default({})
    .describe('colocation groups by name: tables (and routines) in one group have their shards on the same nodes'),
  schemas: z
    .record(ident, schemaSpec.describe('a schema'))
    .default({})
    .describe('schemas by name, when they need more than to exist (schemas of declared objects are created anyway)'),
  tables: z
    .record(z.string(), table)
    .default({})
    .describe('tables by name (`name`, `schema.name`, parts may be `"quoted"`)'),
  sequences: z
    .record(z.string(), sequence)
    .default({})
    .describe("sequences by name (a serial column's own sequence too)"),
  routines: z.record(z.string(), routine).default({}).describe('functions and procedures by name'),
  sql: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'SQL files or folders (relative to the manifest) declaring views, types, indexes, constraints, triggers, policies, comments, extensions, privileges and routines',
    ),
  bench: bench.optional().describe('the workload `bench` runs'),
  prune: z
    .boolean()
    .default(false)
    .describe('drop what the database has and the manifest does not declare (otherwise listed as unmanaged)'),
  ignore: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'globs over what a plan prints for objects it does not manage (`table staging.*`, `trigger *`): neither listed nor pruned',
    ),
});

export type Manifest = z.output<typeof manifestSchema>;
export type ManifestTable = Manifest['tables'][string];
export type ManifestRoutine = Manifest['routines'][string];
export type ManifestPartition = z.output<typeof partition>;
export type ManifestColumn = NonNullable<ManifestTable['columns']>[string];
export type BenchParam = z.output<typeof param>;
export type FromData = z.output<typeof fromData>;
