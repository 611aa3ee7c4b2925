// The step kinds of a table's columns, part of the Step union in steps/steps.ts.
import type { IntegerType } from '../../model/identity-options.js';
import type { Column, IdentityOptions } from '../../model/types.js';
import type { QualifiedName } from '../../sql/quote.js';
import type { RetypeStep } from './retype-spec.js';

export type ColumnStep =
  | {
      readonly kind: 'add_column';
      readonly table: QualifiedName;
      readonly column: Column;
      /** Why adding it rewrites the table (diff/new-column-rewrite.ts); absent: it does not. */
      readonly rewrites?: string;
      /** An undeclared column of the same type at its place: likely its former name (renamed_from). */
      readonly likelyRenameOf?: string;
    }
  | {
      readonly kind: 'alter_column_type';
      readonly table: QualifiedName;
      readonly column: string;
      readonly type: string;
      readonly from: string;
      readonly collation?: string;
      readonly collationSchema?: string;
      /** USING expression when no automatic cast converts the values (diff/column-cast.ts). */
      readonly using?: string;
      /**
       * The column's default is dropped first (PostgreSQL cannot convert it without a cast) and
       * set again after to this one (undefined: none).
       */
      readonly resetDefault?: { readonly default?: string };
      /** Its table is changed online, and why this change is not (plan/retype.ts): it rewrites the table in the transaction. */
      readonly notOnline?: string;
    }
  | {
      readonly kind: 'alter_column_identity';
      readonly table: QualifiedName;
      readonly column: string;
      readonly identity?: 'always' | 'by default';
      readonly from?: 'always' | 'by default';
      /** ADD GENERATED … AS IDENTITY's sequence options (only when it adds one). */
      readonly options?: IdentityOptions;
      /** ADD GENERATED … AS IDENTITY's SEQUENCE NAME, in the table's schema (only when it adds one). */
      readonly sequence?: string;
    }
  | {
      /** ALTER COLUMN … SET INCREMENT BY / SET MINVALUE / … of an identity column's sequence. */
      readonly kind: 'alter_column_identity_options';
      readonly table: QualifiedName;
      readonly column: string;
      readonly type: IntegerType;
      readonly to?: IdentityOptions;
      readonly from?: IdentityOptions;
      /** RESTART at the new START: the sequence was never used. */
      readonly restart?: boolean;
    }
  | { readonly kind: 'drop_column_expression'; readonly table: QualifiedName; readonly column: string }
  | {
      readonly kind: 'alter_column_not_null';
      readonly table: QualifiedName;
      readonly column: string;
      readonly notNull: boolean;
    }
  | {
      readonly kind: 'alter_column_default';
      readonly table: QualifiedName;
      readonly column: string;
      readonly default?: string;
    }
  | { readonly kind: 'drop_column'; readonly table: QualifiedName; readonly column: string }
  | {
      /** An online ADD COLUMN with a volatile default (plan/backfill.ts): the default for new rows, and the marker. */
      readonly kind: 'start_backfill';
      readonly table: QualifiedName;
      readonly column: string;
      readonly default: string;
      readonly marker: string;
    }
  | {
      /**
       * After COMMIT: the rows filled in batches, each committed (per shard on Citus): with the
       * column's default, or (`shadow`, an online type change) the shadow column from the column.
       */
      readonly kind: 'backfill_column';
      readonly table: QualifiedName;
      readonly column: string;
      readonly marker: string;
      readonly perShard: boolean;
      readonly shadow?: string;
    }
  | RetypeStep
  | {
      /** After COMMIT, once filled: SET NOT NULL when declared (the marker validated), and the marker dropped. */
      readonly kind: 'finish_backfill';
      readonly table: QualifiedName;
      readonly column: string;
      readonly marker: string;
      readonly notNull: boolean;
    }
  | {
      readonly kind: 'alter_column_storage';
      readonly table: QualifiedName;
      readonly column: string;
      readonly storage: string;
    }
  | {
      /** SET COMPRESSION (`default`: back to default_toast_compression's). */
      readonly kind: 'alter_column_compression';
      readonly table: QualifiedName;
      readonly column: string;
      readonly compression: string;
    }
  | {
      /** SET / RESET attribute options (n_distinct). */
      readonly kind: 'alter_column_options';
      readonly table: QualifiedName;
      readonly column: string;
      readonly set: readonly (readonly [string, string])[];
      readonly reset: readonly string[];
      /** A partitioned table's: ONLY (its partitions keep their own, as they are made with none). */
      readonly only?: true;
    }
  | {
      /** SET STATISTICS; -1: back to default_statistics_target. */
      readonly kind: 'alter_column_statistics';
      readonly table: QualifiedName;
      readonly column: string;
      readonly statistics: number;
      /** A partitioned table's: ONLY (its partitions keep their own, as they are made with none). */
      readonly only?: true;
    };
