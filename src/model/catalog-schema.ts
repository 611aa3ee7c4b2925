// The catalog query's answer as a zod schema: the tests' oracle for the query and for
// catalog-doc.ts's reading of it (test/unit/catalog-doc.test.ts, and every catalog read of the
// integration suites through test/support/db.ts). The tool itself only reads its types: the answer
// is its own query's, read without a walk of this schema (catalog-doc.ts).
import { z } from 'zod';
import { absentWhenNull, columnNumbersToNames } from './catalog-transforms.js';
import { OBJECT_KINDS } from './types.js';
import { NOT_MANAGED_KINDS } from './not-managed.js';
import { aclsSchema, extensionAclsSchema } from './catalog-schema-acls.js';

const nullableStr = z.string().nullable();
const role = z.object({ name: z.string(), superuser: z.boolean() });
/** An owner other than the role reading the catalog (catalog-owners.ts); null: the reader. */
const owner = role.nullable().optional();
const column = z.object({
  num: z.number().int(),
  name: z.string(),
  type: z.string(),
  notNull: z.boolean(),
  default: nullableStr,
  identity: z.string(),
  generated: z.string(),
  collation: nullableStr.optional(),
  collationSchema: nullableStr.optional(),
  storage: nullableStr.optional(),
  statistics: z.number().int().nullable().optional(),
  compression: nullableStr.optional(),
  options: z.array(z.string()).nullable().optional(),
  inherited: z.boolean().nullable().optional(),
});
const constraint = z.object({
  name: z.string(),
  type: z.enum(['p', 'u', 'f']),
  columns: z.array(z.number().int()).nullable(),
  refSchema: nullableStr,
  refTable: nullableStr,
  refColumns: z.array(z.string()).nullable(),
  onDelete: z.string(),
  onUpdate: z.string(),
  validated: z.boolean().optional(),
  // Absent in catalog documents recorded before they were read (scenario fixtures): not deferrable.
  deferrable: z.boolean().optional(),
  deferred: z.boolean().optional(),
  matchFull: z.boolean().nullable().optional(),
  nullsNotDistinct: z.boolean().nullable().optional(),
  /** A key's INCLUDE columns (attribute numbers; names after catalogDoc); absent in older documents. */
  include: z.array(z.number().int()).nullable().optional(),
  /** A key whose index is not valid (absent when it is). */
  invalid: z.boolean().optional(),
});
const index = z.object({
  name: z.string(),
  unique: z.boolean(),
  method: z.string(),
  valid: z.boolean().optional(),
  columns: z.array(z.number().int()).nullable(),
  simple: z.boolean(),
});
const columnarOptions = z.object({
  compression: z.string(),
  compressionLevel: z.number(),
  stripeRowLimit: z.number(),
  chunkGroupRowLimit: z.number(),
});
const citusTable = z.object({
  method: z.string(),
  repmodel: z.string(),
  colocationId: z.number().int(),
  column: nullableStr,
  shards: z.number().int(),
  /** The hashes of its one-value shards (isolated tenants). */
  isolated: z.array(z.number().int()).nullable().optional(),
  autoconverted: z.boolean().optional(),
});

export const catalogSchema = z
  .object({
    server: z.object({
      versionNum: z.number().int(),
      version: z.string(),
      database: z.string(),
      citus: nullableStr,
      columnar: nullableStr.optional(),
      walLevel: z.string().optional(),
      maxLocks: z.number().int().optional(),
      maxConnections: z.number().int().optional(),
      maxPrepared: z.number().int().optional(),
      outputPlugins: nullableStr.optional(),
      /** Not from the catalog query: read after it when a table is columnar (columnar-options.ts). */
      columnarDefaults: columnarOptions.optional(),
    }),
    schemas: z.array(z.string()),
    distributedSchemas: z.array(z.string()).default([]),
    moves: z.array(z.object({ pid: z.number().int(), query: nullableStr })).default([]),
    jobs: z
      .array(z.object({ id: z.number().int(), state: z.string(), type: z.string(), description: z.string() }))
      .default([]),
    tables: z.array(
      z
        .object({
          schema: z.string(),
          name: z.string(),
          persistence: z.string().optional(),
          am: nullableStr.optional(),
          rows: z.number().optional(),
          bytes: z.number().optional(),
          partitionBy: nullableStr.optional(),
          partitions: z
            .array(
              z.object({
                name: z.string(),
                schema: z.string().optional(),
                bound: z.string(),
                am: nullableStr,
                options: z.array(z.string()).nullable().optional(),
                toastOptions: z.array(z.string()).nullable().optional(),
                /** Its indexes that are its parent's: by the parent index's name, with their column names and kind. */
                indexes: z
                  .array(
                    z.object({
                      name: z.string(),
                      parent: z.string(),
                      columns: z.array(z.string()),
                      label: z.enum(['pkey', 'key', 'excl', 'idx']),
                    }),
                  )
                  .nullable()
                  .optional(),
                /** The partition it is a partition of, when it is not the table's own. */
                of: z.object({ schema: z.string(), name: z.string() }).nullable().optional(),
                partitionBy: nullableStr.optional(),
                partitionKeyTypes: z.array(z.string()).nullable().optional(),
                /** A foreign partition's server and options (`k=v`). */
                foreign: z
                  .object({ server: z.string(), options: z.array(z.string()).nullable() })
                  .nullable()
                  .optional(),
                /** Not from the catalog query: read after it (columnar-options.ts). */
                columnarOptions: columnarOptions.optional(),
              }),
            )
            .nullable()
            .optional(),
          /** The type of each partition key (its operator class's input type). */
          partitionKeyTypes: z.array(z.string()).nullable().optional(),
          inherits: z
            .array(z.object({ schema: z.string(), name: z.string() }))
            .nullable()
            .optional(),
          /** A typed table's composite type (CREATE TABLE … OF), qualified. */
          ofType: z.string().nullable().optional(),
          columns: z.array(column),
          constraints: z.array(constraint),
          indexes: z.array(index),
          /** Storage parameters as `name=value` (pg_class.reloptions), and its TOAST table's. */
          options: z.array(z.string()).nullable().optional(),
          toast: z.boolean().optional(),
          toastOptions: z.array(z.string()).nullable().optional(),
          citus: citusTable.nullable().optional(),
          /** Not from the catalog query: read after it (columnar-options.ts). */
          columnarOptions: columnarOptions.optional(),
        })
        .transform(columnNumbersToNames),
    ),
    sequences: z.array(
      z.object({
        schema: z.string(),
        name: z.string(),
        type: z.string(),
        cache: z.string(),
        start: z.string(),
        increment: z.string(),
        min: z.string(),
        max: z.string(),
        cycle: z.boolean(),
        unlogged: z.boolean().optional(),
        ownedBy: z
          .object({ schema: z.string(), table: z.string(), column: z.string(), deptype: z.string() })
          .nullable(),
        distributed: z.boolean(),
        /** An identity sequence's last value, `unused` or `unknown` (identity-last-values.ts; not in the catalog query). */
        lastValue: z.string().optional(),
        /** A worker has another cache, or could not be read (worker-sequences.ts; not in the catalog query). */
        workersDiffer: z.boolean().optional(),
      }),
    ),
    routines: z.array(
      z
        .object({
          schema: z.string(),
          name: z.string(),
          kind: z.enum(['f', 'p', 'w']),
          language: z.string(),
          argTypes: z.array(z.string()),
          result: nullableStr,
          definition: nullableStr,
          dependents: z.array(z.string()).nullable().optional(),
          owner,
          distribution: z
            .object({
              argIndex: z.number().int().nullable(),
              colocationId: z.number().int().nullable(),
              forceDelegation: z.boolean().nullable(),
            })
            .nullable(),
        })
        .transform(absentWhenNull('owner')),
    ),
    /** What the model does not hold (views, triggers, CHECK constraints, grants…): named in every plan. */
    notManaged: z.array(z.object({ kind: z.enum(NOT_MANAGED_KINDS), name: z.string() })).default([]),
    /** Objects defined by SQL: their create and drop statements and what they reference. */
    objects: z
      .array(
        z
          .object({
            kind: z.enum(OBJECT_KINDS),
            name: z.string(),
            parent: nullableStr,
            create: z.array(z.string()),
            drop: z.array(z.string()),
            deps: z.array(z.string()),
            labels: z.array(z.string()).nullable(),
            /** On Citus, the workers that lack it (a cast: added by introspect/worker-casts.ts, not by the query). */
            missingOn: z.array(z.string()).optional(),
            // updates: absent in fixtures recorded before it was read (the plan then compares version numbers).
            extension: z
              .object({ schema: z.string(), version: z.string(), updates: z.array(z.string()).optional() })
              .nullable(),
            owner,
            /** An index that is not valid (a failed build): last, as the query appends it; absent when valid or not an index. */
            invalid: z.boolean().optional(),
          })
          .transform(absentWhenNull('owner')),
      )
      .default([]),
    /**
     * Whether citus_migrate.object_state exists (read in a second round trip); null when it does
     * but this role may not read it (an apply ran as another role).
     */
    objectState: z.boolean().nullable().default(false),
    /** ACL entries: [type, name, parent, grantee, privilege, grantable, column, schema, owner] (objects/privileges.ts). */
    acls: aclsSchema,
    /** What extensions made and the languages: [type, name, owner, column, ACL now, ACL as the script left it]. */
    extensionAcls: extensionAclsSchema,
    // (keys in jsonb's order: the query builds them as jsonb, to take DISTINCT ones)
    typeUsers: z.array(z.object({ by: z.string(), type: z.string() })).default([]),
    /** Enabled event triggers whose function another role owns; null: none (the key is dropped then). */
    eventTriggers: z
      .array(z.object({ name: z.string(), routine: z.string(), owner: role }))
      .nullable()
      .optional(),
    /** On Citus: GRANT / REVOKE that make the workers' ACLs of what extensions made the coordinator's (introspect/worker-acls.ts). */
    workerGrantDrift: z
      .array(z.object({ object: z.string(), nodes: z.array(z.string()), statements: z.array(z.string()) }))
      .optional(),
    /** The roles of the server (grants to a role that does not exist are plan problems). */
    roles: z.array(z.string()).optional(),
    /** The role reading the catalog (the one that applies), quoted as an identifier. */
    reader: z.string().optional(),
    /** [kind, name, owner]: what a GRANT / REVOKE may name that another role than the reader owns. */
    owners: z
      .array(z.tuple([z.enum(['relation', 'schema', 'routine', 'type', 'server']), z.string(), z.string()]))
      .optional(),
    nodes: z.array(
      z.object({
        id: z.number().int(),
        group: z.number().int(),
        host: z.string(),
        port: z.number().int(),
        role: z.string(),
        active: z.boolean(),
        hasMetadata: z.boolean(),
        metadataSynced: z.boolean(),
        shouldHaveShards: z.boolean(),
      }),
    ),
  })
  .transform(absentWhenNull('eventTriggers'));
