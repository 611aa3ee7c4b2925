// The catalog query's answer, checked by zod so an unexpected server answer is a clear error.
import { z } from 'zod';
import { OBJECT_KINDS } from '../model/types.js';
import { NOT_MANAGED_KINDS } from './catalog-not-managed.js';

const nullableStr = z.string().nullable();
const column = z.object({ name: z.string(), type: z.string(), notNull: z.boolean(), default: nullableStr, identity: z.string(), generated: z.string(), collation: nullableStr.optional() });
const constraint = z.object({
  name: z.string(), type: z.enum(['p', 'u', 'f']), columns: z.array(z.string()).nullable(),
  refSchema: nullableStr, refTable: nullableStr, refColumns: z.array(z.string()).nullable(), onDelete: z.string(), onUpdate: z.string(),
});
const index = z.object({ name: z.string(), unique: z.boolean(), method: z.string(), columns: z.array(z.string()).nullable(), simple: z.boolean() });
const citusTable = z.object({ method: z.string(), repmodel: z.string(), colocationId: z.number().int(), column: nullableStr, shards: z.number().int() });

export const catalogSchema = z.object({
  server: z.object({ versionNum: z.number().int(), version: z.string(), database: z.string(), citus: nullableStr }),
  schemas: z.array(z.string()),
  tables: z.array(z.object({
    schema: z.string(), name: z.string(), persistence: z.string().optional(), columns: z.array(column), constraints: z.array(constraint), indexes: z.array(index),
    citus: citusTable.nullable().optional(),
  })),
  sequences: z.array(z.object({
    schema: z.string(), name: z.string(), type: z.string(), cache: z.string(), start: z.string(), increment: z.string(),
    min: z.string(), max: z.string(), cycle: z.boolean(),
    ownedBy: z.object({ schema: z.string(), table: z.string(), column: z.string(), deptype: z.string() }).nullable(),
    distributed: z.boolean(),
  })),
  routines: z.array(z.object({
    schema: z.string(), name: z.string(), kind: z.enum(['f', 'p']), language: z.string(), argTypes: z.array(z.string()),
    result: nullableStr, definition: nullableStr,
    distribution: z.object({ argIndex: z.number().int().nullable(), colocationId: z.number().int().nullable(), forceDelegation: z.boolean().nullable() }).nullable(),
  })),
  /** What the model does not hold (views, triggers, CHECK constraints, grants…): named in every plan. */
  notManaged: z.array(z.object({ kind: z.enum(NOT_MANAGED_KINDS), name: z.string() })).default([]),
  /** Objects defined by SQL: their create and drop statements and what they reference. */
  objects: z.array(z.object({
    kind: z.enum(OBJECT_KINDS), name: z.string(), parent: nullableStr, create: z.array(z.string()), drop: z.array(z.string()),
    deps: z.array(z.string()), labels: z.array(z.string()).nullable(),
    extension: z.object({ schema: z.string(), version: z.string() }).nullable(),
  })).default([]),
  /** Whether citus_migrate.object_state exists (read in a second round trip). */
  objectState: z.boolean().default(false),
  /** ACL entries: [type, name, parent, grantee, privilege, grantable, column] (objects/privileges.ts). */
  acls: z.array(z.tuple([z.enum(['TABLE', 'SEQUENCE', 'SCHEMA', 'FUNCTION', 'PROCEDURE', 'TYPE', 'TABLES', 'SEQUENCES', 'FUNCTIONS', 'TYPES', 'SCHEMAS']),
    z.string(), nullableStr, nullableStr, nullableStr, z.boolean().nullable(), nullableStr, nullableStr.optional()])).default([]),
  typeUsers: z.array(z.object({ type: z.string(), by: z.string() })).default([]),
  nodes: z.array(z.object({
    id: z.number().int(), group: z.number().int(), host: z.string(), port: z.number().int(), role: z.string(),
    active: z.boolean(), hasMetadata: z.boolean(), metadataSynced: z.boolean(), shouldHaveShards: z.boolean(),
  })),
});

export type CatalogDoc = z.infer<typeof catalogSchema>;
export type CatalogNode = CatalogDoc['nodes'][number];
