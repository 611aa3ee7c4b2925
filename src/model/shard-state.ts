// What `plan --shards` compares (introspect/read-shards.ts reads it): the coordinator's Citus
// tables as defined there and every shard placement as it is on its node, as zod schemas (the
// reader checks the answers) and their types (the planner's shard check reads them).
import { z } from 'zod';

const indexFacts = z.object({
  name: z.string(),
  schema: z.string(),
  valid: z.boolean(),
  constraint: z.string().nullable(),
  /** CREATE INDEX as the coordinator's table has it; null on a shard (not read there). */
  definition: z.string().nullable(),
  shape: z.unknown(),
});
const constraintFacts = z.object({
  name: z.string(),
  type: z.string(),
  definition: z.string(),
  /** A foreign key's referenced table (schema, name); null for other kinds. */
  refTable: z.tuple([z.string(), z.string()]).nullish(),
  columns: z.array(z.string()).nullable(),
});
const triggerFacts = z.object({ name: z.string(), function: z.string(), definition: z.string() });
export const relationFacts = z.object({
  key: z.string(),
  exists: z.boolean(),
  columns: z.array(z.tuple([z.string(), z.string(), z.boolean()])).nullable(),
  indexes: z.array(indexFacts).nullable(),
  constraints: z.array(constraintFacts).nullable(),
  triggers: z.array(triggerFacts).nullable(),
});
export const placement = z.object({
  table: z.tuple([z.string(), z.string()]),
  shardId: z.number(),
  shard: z.string(),
  group: z.number(),
  host: z.string(),
  port: z.number(),
});

export type RelationFacts = z.infer<typeof relationFacts>;
export type IndexFacts = z.infer<typeof indexFacts>;
export type Placement = z.infer<typeof placement>;

/** What the shard check reads: the tables on the coordinator, each placement on its node. */
export interface ShardState {
  /** Keyed by "schema.table" as placements' `table` joins it. */
  readonly tables: Readonly<Record<string, RelationFacts>>;
  readonly placements: readonly (Placement & { readonly facts?: RelationFacts })[];
  /** Nodes that did not answer, with what Citus said. */
  readonly unreachable: readonly { readonly host: string; readonly port: number; readonly error: string }[];
}
