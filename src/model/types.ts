// The plain-data model both sides become before they are compared: the manifest (desired)
// and the live cluster (actual). It holds no SQL statements and no connection.
import { quoteQualified, type QualifiedName } from '../sql/quote.js';
import type { TypeInfo } from '../sql/pg-parse.js';
import type { IdentityLast, IdentityOptions, IntText } from './identity-types.js';
import type { KeyRefs, ObjectKind } from './object-kinds.js';
import type { Partition } from './partition-types.js';
import type { EventTrigger, Owner, OwnedParts, Owners } from './owner.js';
import type { PrivilegeParts } from './privilege-types.js';

export type { IdentityOptions, IntText } from './identity-types.js';
export { OBJECT_KINDS, type KeyRefs, type ObjectKind } from './object-kinds.js';
export type { EventTrigger, Owner, OwnerRevoke, Owners } from './owner.js';
export type { Deferral, FkAction, ForeignKey, Key } from './key-types.js';
import type { ForeignKey, Key } from './key-types.js';

export interface Column {
  readonly name: string;
  readonly type: TypeInfo;
  readonly notNull: boolean;
  readonly default?: string; // an SQL expression, checked by the parser
  readonly identity?: 'always' | 'by default';
  /** An identity column's sequence options that differ from PostgreSQL's defaults for its type. */
  readonly identityOptions?: IdentityOptions;
  /** Its identity sequence's name, in its table's schema. Desired: as the manifest gives it (none: left
   * as it is). Actual: when it is not `<table>_<column>_seq` (SEQUENCE NAME, or renamed). */
  readonly identitySequence?: string;
  /** Actual only: its identity sequence's last value (text), `unused` or `unknown` (identity-types.ts). */
  readonly identityLast?: IdentityLast;
  /** The expression of a stored generated column. */
  readonly generated?: string;
  /** A collation other than the type's default (its name). */
  readonly collation?: string;
  /** Its schema, when not pg_catalog (a collation the user created: CREATE COLLATION app.nocase …). */
  readonly collationSchema?: string;
  /** SET STORAGE other than the type's own (desired: as declared; actual: only when it differs). */
  readonly storage?: ColumnStorage;
  /** Actual only, with `storage`: the type's own, which a column declared without one goes back to. */
  readonly typeStorage?: ColumnStorage;
  /** SET STATISTICS: the planner's statistics target for it; absent: default_statistics_target. */
  readonly statistics?: number;
  /** COMPRESSION of its TOASTed values other than default_toast_compression's (`pglz`, `lz4`). */
  readonly compression?: string;
  /** Attribute options (ALTER COLUMN … SET (n_distinct = …)) as text, by name; absent: none. */
  readonly options?: Readonly<Record<string, string>>;
  /** It comes from a parent by INHERITS and is not the table's own (attislocal false): the parent's changes reach it. */
  readonly inherited?: boolean;
  /** Desired only: the USING expression of a type change (never introspected). */
  readonly using?: string;
  /** Desired only: its former name (`renamed_from`): renamed while the table has that column and not this one. */
  readonly renamedFrom?: string;
}

export const COLUMN_STORAGES = ['plain', 'external', 'extended', 'main'] as const;
export type ColumnStorage = (typeof COLUMN_STORAGES)[number];

export interface Index {
  readonly name?: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
  readonly using: string;
  /** Actual only: left invalid by a CREATE INDEX CONCURRENTLY that failed (it is rebuilt). */
  readonly invalid?: boolean;
  /** Desired only: its former name (`renamed_from`): an index of that name and this definition is renamed. */
  readonly renamedFrom?: string;
}

export type Distribution =
  | { readonly kind: 'hash'; readonly column: string; readonly group: string }
  | { readonly kind: 'reference' }
  | { readonly kind: 'single_shard' }
  /** A table of a distributed schema (schema-based sharding): Citus makes it a single-shard table of its schema's group. */
  | { readonly kind: 'schema' }
  /**
   * In Citus's metadata on the coordinator (citus_add_local_table_to_metadata). `cascade`: the
   * tables linked to it by foreign keys go too (desired). `auto`: Citus converted it itself for a
   * foreign key with a reference table (actual), and undoes that when the key goes.
   */
  | { readonly kind: 'citus_local'; readonly cascade?: boolean; readonly auto?: boolean }
  | { readonly kind: 'local' };

export type { ForeignPartition, IndexLabel, Partition, PartitionIndex } from './partition-types.js';
export { partitionParent, partitionQname } from './partition-types.js';

// Time partitions kept by Citus's functions: partitions `interval` wide are created `premake`
// intervals ahead (create_time_partitions), dropped once older than `retention` (drop_old_time_partitions),
// made columnar once older than `columnarAfter` (alter_old_partitions_set_access_method). Intervals: PostgreSQL text.
export interface TimePartitions {
  readonly interval: string;
  readonly premake: number;
  readonly retention?: string;
  readonly columnarAfter?: string;
}

/**
 * Options of a columnar table (ALTER TABLE … SET (columnar.compression = …)). Desired: the keys
 * declared; actual: all four, as columnar.options shows them.
 */
export interface ColumnarOptions {
  readonly compression?: string;
  readonly compressionLevel?: number;
  readonly stripeRowLimit?: number;
  readonly chunkGroupRowLimit?: number;
}

export interface Table {
  readonly id: string; // quoted schema.name, the stable identity
  readonly qname: QualifiedName;
  /** Undefined: the table is created elsewhere; only its distribution (and keys given) are managed. */
  readonly columns?: readonly Column[];
  readonly primaryKey?: Key;
  readonly unique: readonly Key[];
  readonly indexes: readonly Index[];
  readonly foreignKeys: readonly ForeignKey[];
  readonly distribution: Distribution;
  /** CREATE UNLOGGED TABLE: not written to the WAL (emptied after a crash, not replicated). */
  readonly unlogged?: boolean;
  /** Table access method when not heap: `columnar` (citus_columnar). */
  readonly accessMethod?: string;
  /** A columnar table's options. */
  readonly columnarOptions?: ColumnarOptions;
  /** PARTITION BY, as pg_get_partkeydef prints it: `RANGE (ts)`, `LIST (region)`, `HASH (id)`, `RANGE (lower(name))`. */
  readonly partitionBy?: string;
  /** Partitions (desired: those declared one by one; actual: all). */
  readonly partitions?: readonly Partition[];
  /** Actual only: the type of each partition key, as its operator class takes it (an expression's bounds are read with it). */
  readonly partitionKeyTypes?: readonly string[];
  readonly ofType?: string; // a typed table's composite type (CREATE TABLE … OF), `schema.name`
  /** The tables it inherits from (INHERITS, not partitions), by id, in order. */
  readonly inherits?: readonly string[];
  /** Actual only: the planner's estimate of its rows and bytes on the coordinator (not on the workers). */
  readonly size?: { readonly rows: number; readonly bytes: number };
  /** Desired only: change it without blocking writes (create_distributed_table_concurrently, CREATE INDEX CONCURRENTLY, NOT VALID + VALIDATE). */
  readonly online?: boolean;
  /** Desired only: partitions kept by time (they are not listed one by one). */
  readonly timePartitions?: TimePartitions;
  /** Desired only: its former name in its schema (`renamed_from`): renamed while that table exists and this one does not. */
  readonly renamedFrom?: string;
  /** Storage parameters (`fillfactor`, `autovacuum_*`, `toast.*`) as text, by name; absent: none. */
  readonly storageParameters?: Readonly<Record<string, string>>;
  /** Actual only: whether it has a TOAST table (toast.* parameters have nowhere to go without one). */
  readonly toast?: boolean;
}

/** Shards of a new colocation group or distributed table when the manifest says nothing (Citus's own default is 32 too). */
export const DEFAULT_SHARD_COUNT = 32;

/** A tenant on a shard of its own (isolate_tenant_to_new_shard): the hash of its value; desired, the value too. */
export interface IsolatedTenant {
  readonly hash: number;
  /** Desired only: the distribution value, as SQL integer text. */
  readonly value?: string;
}

export interface ColocationGroup {
  readonly name: string;
  /** Shards as create_distributed_table made them (the pieces isolation cut off not counted). */
  readonly shardCount: number;
  /** Tenants isolated on shards of their own (actual: the one-value shards). */
  readonly isolated?: readonly IsolatedTenant[];
  readonly anchor: string; // table id, distributed first with colocate_with 'none'
  readonly members: readonly string[]; // table ids, anchor first
}

export interface Sequence {
  readonly id: string;
  readonly qname: QualifiedName;
  readonly type: 'smallint' | 'integer' | 'bigint';
  readonly cache: IntText;
  readonly start?: IntText;
  readonly increment?: IntText;
  readonly min?: IntText;
  readonly max?: IntText;
  readonly cycle: boolean;
  /** OWNED BY: the table column it goes with (a serial column's own sequence, or declared `owned_by`). */
  readonly ownedBy?: { readonly table: string; readonly column: string };
  /** CREATE UNLOGGED SEQUENCE (one owned by no column: an owned one follows its table). */
  readonly unlogged?: boolean;
  /** Desired only: a serial column's own sequence the manifest does not declare (CREATE TABLE's defaults). */
  readonly implicit?: boolean;
  /** Actual only: Citus created it on every node (its table was distributed); ALTER is refused then. */
  readonly distributed?: boolean;
  /** Actual only: a worker has another cache, or could not be read. */
  readonly workersDiffer?: boolean;
  /** Desired only: its former name in its schema (`renamed_from`). */
  readonly renamedFrom?: string;
}

export interface RoutineDistribution {
  /** 0-based index of the distribution argument; undefined: on every node, never delegated. */
  readonly argIndex?: number;
  readonly colocateWith?: string; // table id
  readonly forceDelegation?: boolean;
}

export interface Routine {
  readonly id: string; // schema.name(type, ...) or schema.name when the signature is unknown
  readonly qname: QualifiedName;
  readonly kind?: 'function' | 'procedure';
  /** Identity argument types (canonical); undefined when resolved by name alone. */
  readonly argTypes?: readonly string[];
  /** The CREATE statement from the routine's file; undefined when the routine is created elsewhere. */
  readonly definition?: string;
  /** True when the definition names no schema and must be created with search_path set. */
  readonly unqualifiedDefinition?: boolean;
  /** The result type as pg_get_function_result prints it (actual), or as parsed (desired). */
  readonly result?: string;
  /** Actual only: aggregates and types built on it that are not managed (pg_describe_object text); its DROP fails while they exist. */
  readonly dependents?: readonly string[];
  /** {} = on every node, not delegated. Undefined: Citus does not know it (desired: declared `local: true`). */
  readonly distribution?: RoutineDistribution;
  /** Actual only: its owner, when another role than the one reading the catalog. */
  readonly owner?: Owner;
}

// An object defined by SQL: a view, a type, a trigger, a comment… Both sides hold the statements
// that create it (desired: as written; actual: rebuilt from the catalog's pg_get_*def output).
// References between objects are names: "relation s.t", "type s.t", "routine s.f".
export interface SqlObject extends OwnedParts {
  readonly id: string; // `${kind} ${name}`, the stable identity and what a plan prints
  readonly kind: ObjectKind;
  readonly name: string; // app.v, app.t.check_name (sub-objects), on table app.t (comments)
  /** The object it belongs to and goes with ("relation app.t", "routine app.f(integer)", "type app.e"). */
  readonly parent?: string;
  readonly create: readonly string[];
  /** Actual only: the statements that remove it. */
  readonly drop?: readonly string[];
  /** Names this object makes ("relation app.v", "type app.e"). */
  readonly provides: readonly string[];
  /** Names it needs (desired: from the parse tree; actual: from pg_depend). */
  readonly deps: readonly string[];
  /** Enum labels in order. */
  readonly labels?: readonly string[];
  /** Actual only: an index that is not valid (a failed build): rebuilt when declared. */
  readonly invalid?: boolean;
  /** Actual only, on Citus: the workers (`host:port`) that lack it (a cast: Citus does not propagate them). */
  readonly missingOn?: readonly string[];
  /** Default privileges (ALTER DEFAULT PRIVILEGES … GRANT): what objects created later get, and who gets it (quoted names). */
  readonly defaultGrant?: {
    readonly on: 'TABLES' | 'SEQUENCES' | 'FUNCTIONS' | 'TYPES' | 'SCHEMAS';
    readonly inSchema?: string;
    readonly grantee: string;
  };
  /** Default privileges that take from PUBLIC what objects created later would get (EXECUTE on functions, USAGE on types). */
  readonly defaultRevoke?: {
    readonly on: 'TABLES' | 'SEQUENCES' | 'FUNCTIONS' | 'TYPES' | 'SCHEMAS';
    readonly privileges: readonly string[];
  };
  /** Desired only: a partition's own key or foreign key: its columns and what it references (a table id). */
  readonly constraint?: KeyRefs;
  /** Extension options as created; actual only: `updates`, the versions UPDATE TO can reach from it. */
  readonly extension?: { readonly schema?: string; readonly version?: string; readonly updates?: readonly string[] };
  /** Desired only, a user mapping: the digest of each environment variable its options name (null: unset). */
  readonly secrets?: Readonly<Record<string, string | null>>;
  readonly source?: string; // desired only: where it was declared (file:line:col), for problems
  /** Desired only: a view's or materialized view's former name in its schema (`-- renamed_from: old` above it). */
  readonly renamedFrom?: string;
  /** Desired only: an index declared CREATE INDEX CONCURRENTLY (its `create` says CREATE INDEX): built after COMMIT, concurrently, when its table exists. */
  readonly online?: boolean;
  /** Desired only: the schema unqualified names in its statements mean (the manifest's default schema). */
  readonly searchPath?: string;
}

export interface ClusterModel extends Owners, PrivilegeParts {
  readonly schemas: readonly string[];
  /** Schemas distributed by citus_schema_distribute (schema-based sharding): each table in one is a single-shard table. */
  readonly distributedSchemas?: readonly string[];
  /** Actual only: schemas that hold objects of kinds the model does not hold (never pruned: DROP SCHEMA would refuse). */
  readonly schemasWithNotManaged?: readonly string[];
  /** Actual only: whether the citus_columnar extension (the columnar access method) is installed. */
  readonly columnar?: boolean;
  /** Actual only: the options a columnar table gets when none are set (the columnar.* settings). */
  readonly columnarDefaults?: ColumnarOptions;
  /** Desired only: schemas declared `distributed: false` (undistributed if they are distributed). */
  readonly plainSchemas?: readonly string[];
  /** Objects defined by SQL, keyed by id. */
  readonly objects: Readonly<Record<string, SqlObject>>;
  /** Actual only: enabled event triggers whose function another role owns (they fire on every DDL statement a plan runs). */
  readonly eventTriggers?: readonly EventTrigger[];
  /** Actual only: the server's roles, by name (a grant to another is refused by PostgreSQL). */
  readonly roles?: readonly string[];
  /** Actual only: which tables use which user-defined types ("type app.e" -> ["relation app.t"]). */
  readonly typeUsers?: Readonly<Record<string, readonly string[]>>;
  readonly tables: Readonly<Record<string, Table>>;
  readonly groups: Readonly<Record<string, ColocationGroup>>;
  readonly sequences: Readonly<Record<string, Sequence>>;
  readonly routines: Readonly<Record<string, Routine>>;
}

/** The identity key of a qualified name. */
export function idOf(q: QualifiedName): string {
  // The quoted form is unambiguous even for names holding dots or quotes.
  return quoteQualified(q);
}

/** The identity key of a routine: schema.name(canonical, types). */
export function routineId(q: QualifiedName, argTypes: readonly string[] | undefined): string {
  return argTypes ? `${idOf(q)}(${argTypes.join(', ')})` : idOf(q);
}
