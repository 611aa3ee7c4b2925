// The layout step kinds (partitions, access methods, Citus-local tables, distributed schemas,
// time partitions), part of the Step union in steps/steps.ts; records in spec/ (partitions, storage, citus).
import type { ColumnarOptions, ColumnStorage, Partition } from '../../model/types.js';
import type { QualifiedName } from '../../sql/quote.js';

export type LayoutStep =
  | {
      readonly kind: 'distribute_table_concurrently';
      readonly table: QualifiedName;
      readonly column: string;
      readonly group: string;
      readonly colocateWith: 'none' | QualifiedName;
      readonly shardCount?: number;
    }
  | { readonly kind: 'validate_constraint'; readonly table: QualifiedName; readonly name: string }
  | { readonly kind: 'create_columnar_extension' }
  | {
      readonly kind: 'create_partition';
      readonly table: QualifiedName;
      readonly partition: Partition;
      /** TABLESPACE, quoted: said when its parent is in one (a partition made without it goes there too). */
      readonly tablespace?: string;
    }
  /** ALTER FOREIGN TABLE partition OPTIONS (ADD / SET k 'v', DROP k): `set` as [key, value, added]. */
  | {
      readonly kind: 'alter_foreign_partition';
      readonly partition: QualifiedName;
      readonly set: readonly (readonly [string, string, boolean])[];
      readonly drop: readonly string[];
    }
  /** `foreign`: a foreign partition (DROP FOREIGN TABLE; its rows are elsewhere). */
  | {
      readonly kind: 'drop_partition';
      readonly table: QualifiedName;
      readonly partition: QualifiedName;
      readonly foreign?: boolean;
    }
  /** ALTER TABLE … SET ACCESS METHOD: a table of the coordinator alone, neither side columnar. */
  | {
      readonly kind: 'alter_table_access_method';
      readonly table: QualifiedName;
      readonly accessMethod: string;
      readonly from: string;
      readonly parent?: QualifiedName;
    }
  | {
      readonly kind: 'set_access_method';
      readonly table: QualifiedName;
      readonly accessMethod: string;
      readonly from: string;
      /** Set when `table` is a partition of this parent. */
      readonly parent?: QualifiedName;
    }
  | { readonly kind: 'add_local_table_to_metadata'; readonly table: QualifiedName; readonly cascade: boolean }
  | { readonly kind: 'distribute_schema'; readonly schema: string; readonly copiesData: boolean }
  | { readonly kind: 'undistribute_schema'; readonly schema: string }
  | {
      readonly kind: 'create_time_partitions';
      readonly table: QualifiedName;
      readonly interval: string;
      /** Partitions are created until they cover this instant (timestamptz text, UTC). */
      readonly endAt: string;
    }
  | {
      readonly kind: 'drop_old_time_partitions';
      readonly table: QualifiedName;
      readonly olderThan: string;
      /** The partitions it drops, as the catalog read them. */
      readonly partitions: readonly string[];
    }
  | {
      readonly kind: 'set_old_partitions_access_method';
      readonly table: QualifiedName;
      readonly olderThan: string;
      readonly accessMethod: string;
      readonly partitions: readonly string[];
    }
  | { readonly kind: 'alter_table_persistence'; readonly table: QualifiedName; readonly unlogged: boolean }
  /** What an inherited column has of its own (ALTER TABLE ONLY … SET DEFAULT; SET NOT NULL), after its parents' changes. */
  | {
      readonly kind: 'alter_inherited_column';
      readonly table: QualifiedName;
      readonly column: string;
      /** Set (`value`) or dropped (`{}`); absent: unchanged. */
      readonly default?: { readonly value?: string };
      readonly notNull?: boolean;
      /** Its own SET STATISTICS (null: -1, the default), SET STORAGE, SET (…) and RESET (…). */
      readonly statistics?: number | null;
      readonly storage?: ColumnStorage;
      readonly setOptions?: readonly (readonly [string, string])[];
      readonly resetOptions?: readonly string[];
    }
  /** ALTER TABLE … OF type (its columns are the type's attributes) or NOT OF (`ofType` absent). */
  | { readonly kind: 'alter_table_of'; readonly table: QualifiedName; readonly ofType?: string }
  /** ALTER TABLE … INHERIT parent (the table has the parent's columns already) or NO INHERIT. */
  | {
      readonly kind: 'alter_table_inherit';
      readonly table: QualifiedName;
      readonly parent: QualifiedName;
      readonly inherit: boolean;
    }
  | {
      readonly kind: 'set_columnar_options';
      readonly table: QualifiedName;
      readonly set: ColumnarOptions;
      /** Options put back to the server's defaults (prune). */
      readonly reset: readonly (keyof ColumnarOptions)[];
    };
