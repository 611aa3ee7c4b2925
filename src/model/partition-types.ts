// A partitioned table's partitions as the model holds them (types.ts re-exports them).
import type { QualifiedName } from '../sql/quote.js';
import type { ColumnarOptions } from './types.js';

/** A partition of a partitioned table: a table of its own, named in the parent's schema. */
export interface Partition {
  readonly name: string;
  /** Its schema when it is not its table's. */
  readonly schema?: string;
  /**
   * The partition it is a partition of, when it is not its table's own: a table's partitions at
   * every level are one list, each after the one it is a partition of.
   */
  readonly of?: QualifiedName;
  /** The bound as PostgreSQL prints it: `FOR VALUES FROM ('2024-01-01') TO ('2024-02-01')`, `DEFAULT`. */
  readonly bound: string;
  /** Its own PARTITION BY when it is partitioned itself (as the table's `partitionBy`). */
  readonly partitionBy?: string;
  /** Actual only: the type of each of its own partition keys (as the table's). */
  readonly partitionKeyTypes?: readonly string[];
  /** Its table access method when not heap (`columnar`). */
  readonly accessMethod?: string;
  /** A foreign partition (CREATE FOREIGN TABLE … PARTITION OF): its server and options. */
  readonly foreign?: ForeignPartition;
  /** A columnar partition's options (as a columnar table's). */
  readonly columnarOptions?: ColumnarOptions;
  /** Its own storage parameters, as the table's (`toast.` for its TOAST table's). */
  readonly storageParameters?: Readonly<Record<string, string>>;
  /**
   * The names of its copies of its parent's indexes, by the parent index's name. Desired: those
   * the manifest gives (the others are named as PostgreSQL chooses). Actual: all of them.
   */
  readonly indexNames?: Readonly<Record<string, string>>;
  /** Actual only: its copies of its parent's indexes, with what PostgreSQL chose their names from. */
  readonly indexes?: readonly PartitionIndex[];
}

/** A foreign partition's server (its name) and options. */
export interface ForeignPartition {
  readonly server: string;
  readonly options?: Readonly<Record<string, string>>;
}

/** What PostgreSQL names an index after: `pkey`, `key` (a unique constraint), `excl`, `idx`. */
export type IndexLabel = 'pkey' | 'key' | 'excl' | 'idx';

/** A partition's copy of an index of its parent (actual). */
export interface PartitionIndex {
  readonly name: string;
  /** The parent index's name. */
  readonly parent: string;
  /** The index's column names (an expression's as PostgreSQL names it). */
  readonly columns: readonly string[];
  readonly label: IndexLabel;
}

/** A partition's schema-qualified name: in its table's schema unless it says otherwise. */
export const partitionQname = (t: { readonly qname: QualifiedName }, p: Partition): QualifiedName => ({
  schema: p.schema ?? t.qname.schema,
  name: p.name,
});

/** The table a partition is a partition of: its table, or the partition it is one of. */
export const partitionParent = (t: { readonly qname: QualifiedName }, p: Partition): QualifiedName => p.of ?? t.qname;
