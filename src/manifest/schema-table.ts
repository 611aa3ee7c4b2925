// The table part of the manifest schema (columns, keys, indexes, layout): split from schema.ts.
import { z } from 'zod';
import { ident, shardCount } from './schema-parts.js';
import type { Deferral, Key } from '../model/types.js';

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
          .union([
            z.string().min(1),
            z
              .strictObject({ schema: z.string().min(1), name: z.string().min(1) })
              .describe('a collation in a schema of yours'),
          ])
          .optional()
          .describe(
            "a collation other than the type's default, e.g. `C` or `de-x-icu`, or `{schema: app, name: nocase}` for one made with CREATE COLLATION (citus-migrate does not create collations)",
          ),
        storage: z
          .enum(['plain', 'external', 'extended', 'main'])
          .optional()
          .describe("SET STORAGE (how values are TOASTed), when not the type's own"),
        statistics: z
          .number()
          .int()
          .min(0)
          .max(10000)
          .optional()
          .describe('SET STATISTICS: how much ANALYZE samples of it (default: default_statistics_target)'),
        using: z
          .string()
          .min(1)
          .optional()
          .describe(
            "the USING expression of a type change (`CASE WHEN c = 'y' THEN true ELSE false END`), instead of `USING c::type`; used only when the plan changes the column's type",
          ),
      })
      .describe('a column with options'),
  ])
  .describe('a column: its type as a string (`bigint`), or an object with options');

const fkAction = z.enum(['no action', 'restrict', 'cascade', 'set null', 'set default']);
const deferrable = z
  .boolean()
  .optional()
  .describe('DEFERRABLE: `SET CONSTRAINTS … DEFERRED` can move the check to COMMIT (default: NOT DEFERRABLE)');
const initiallyDeferred = z
  .boolean()
  .optional()
  .describe('INITIALLY DEFERRED: checked at COMMIT unless a transaction says otherwise (implies `deferrable`)');
const foreignKey = z.strictObject({
  columns: z.array(ident).min(1).describe('referencing columns'),
  references: z.string().min(1).describe('the referenced table: a manifest key'),
  ref_columns: z.array(ident).min(1).describe('referenced columns (a primary key or unique key of that table)'),
  on_delete: fkAction.optional().describe('ON DELETE action'),
  on_update: fkAction.optional().describe('ON UPDATE action'),
  name: ident.optional().describe("constraint name (default: PostgreSQL's `<table>_<column>_fkey`)"),
  deferrable,
  initially_deferred: initiallyDeferred,
  not_valid: z
    .boolean()
    .optional()
    .describe(
      'NOT VALID: added without checking the rows already there, and never validated by a plan (a key already validated stays so)',
    ),
});

const index = z.strictObject({
  columns: z.array(ident).min(1).describe('indexed columns, ascending (other shapes: CREATE INDEX in a `sql:` file)'),
  unique: z.boolean().optional().describe('UNIQUE (on a distributed table it must include the distribution column)'),
  name: ident.optional().describe("index name (default: PostgreSQL's `<table>_<columns>_idx`)"),
  using: z.enum(['btree', 'hash', 'gin', 'gist', 'brin', 'spgist']).optional().describe('index method (default btree)'),
});

const keyColumns = z.array(ident).min(1);
const namedKey = (what: string, dflt: string) =>
  z
    .strictObject({
      name: ident.optional().describe(`constraint name (default: PostgreSQL's \`${dflt}\`)`),
      columns: keyColumns.describe(`${what} columns`),
      deferrable,
      initially_deferred: initiallyDeferred,
    })
    .describe(`a ${what} with its constraint name`);
/** A key: its columns, or `{ name, columns }`. */
export type KeySpec =
  | readonly string[]
  | {
      readonly name?: string | undefined;
      readonly columns: readonly string[];
      readonly deferrable?: boolean | undefined;
      readonly initially_deferred?: boolean | undefined;
    };
/** The columns of a key as the manifest declares it (`[a, b]` or `{ name, columns: [a, b] }`). */
export const keyColumnsOf = (k: KeySpec): readonly string[] => ('columns' in k ? k.columns : k);
/** A key as the model holds it: the name only when declared; INITIALLY DEFERRED implies DEFERRABLE. */
export const modelKey = (k: KeySpec): Key =>
  'columns' in k ? { ...(k.name ? { name: k.name } : {}), columns: k.columns, ...modelDeferral(k) } : { columns: k };
/** `deferrable` / `initially_deferred` as the model holds them (INITIALLY DEFERRED implies DEFERRABLE). */
export const modelDeferral = (k: {
  readonly deferrable?: boolean | undefined;
  readonly initially_deferred?: boolean | undefined;
}): Deferral => ({
  ...(k.deferrable || k.initially_deferred ? { deferrable: true } : {}),
  ...(k.initially_deferred ? { initiallyDeferred: true } : {}),
});
/** The path of a key's column list (`…primary_key` or `…primary_key.columns`). */
export const keyColumnsPath = <P extends readonly (string | number)[]>(k: KeySpec, path: P) =>
  'columns' in k ? [...path, 'columns'] : [...path];

const boundValue = z.union([z.string(), z.number()]);
const boundValues = z.union([boundValue, z.array(boundValue).min(1)]);
export const partition = z
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

export const table = z.strictObject({
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
  columnar_options: z
    .strictObject({
      compression: z.enum(['none', 'pglz', 'lz4', 'zstd']).optional().describe('columnar.compression'),
      compression_level: z.number().int().min(1).max(19).optional().describe('columnar.compression_level (1–19)'),
      stripe_row_limit: z
        .number()
        .int()
        .min(1000)
        .max(10_000_000)
        .optional()
        .describe('columnar.stripe_row_limit (1,000–10,000,000)'),
      chunk_group_row_limit: z
        .number()
        .int()
        .min(1000)
        .max(100_000)
        .optional()
        .describe('columnar.chunk_group_row_limit (1,000–100,000)'),
    })
    .optional()
    .describe("a columnar table's options (ALTER TABLE … SET (columnar.…)); those not given are the server's defaults"),
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
      'columns in order (`{}`: a table without columns); without it the table is created elsewhere and only its distribution and declared keys are managed',
    ),
  primary_key: z
    .union([keyColumns, namedKey('primary key', '<table>_pkey')])
    .optional()
    .describe('primary key: its columns, or `{ name, columns }` to name the constraint'),
  unique: z
    .array(z.union([keyColumns, namedKey('unique constraint', '<table>_<columns>_key')]))
    .optional()
    .describe('unique constraints, each a list of columns or `{ name, columns }`'),
  indexes: z.array(index).optional().describe('plain indexes'),
  foreign_keys: z
    .array(foreignKey)
    .optional()
    .describe('foreign keys (Citus: between colocated tables on the distribution column, or to a reference table)'),
});
