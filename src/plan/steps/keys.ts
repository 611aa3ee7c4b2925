// The step kinds of a table's keys and constraints (primary keys, unique constraints, foreign
// keys, partitions attached), part of the Step union in steps/steps.ts; records in steps/keys-spec.ts and steps/partitions-spec.ts.
import type { ForeignKey, Key, Partition } from '../../model/types.js';
import type { QualifiedName } from '../../sql/quote.js';

export type KeyStep =
  | {
      readonly kind: 'add_foreign_key';
      readonly table: QualifiedName;
      readonly fk: ForeignKey;
      readonly refTable: QualifiedName;
      /** Added NOT VALID (no scan, brief lock) and validated by a later step (online). */
      readonly notValid?: boolean;
    }
  | { readonly kind: 'add_primary_key'; readonly table: QualifiedName; readonly key: Key }
  | { readonly kind: 'add_unique'; readonly table: QualifiedName; readonly key: Key }
  | { readonly kind: 'rename_key'; readonly table: QualifiedName; readonly from: string; readonly to: string }
  /** ALTER TABLE … RENAME CONSTRAINT of a foreign key (a constraint without an index), on a plain table. */
  | { readonly kind: 'rename_constraint'; readonly table: QualifiedName; readonly from: string; readonly to: string }
  | {
      /**
       * ALTER TABLE … DROP CONSTRAINT (never CASCADE) of a key or foreign key: `changed`, the plan
       * adds it again as its definition differs under the same name; `dependent`, it references a
       * key this plan replaces (added again after it); `pruned`, the manifest does not declare it
       * and prune is on (a foreign key first, then the key it referenced); `invalid`, a key whose
       * index is not valid (so not enforced), added again as declared.
       */
      readonly kind: 'drop_constraint';
      readonly table: QualifiedName;
      readonly name: string;
      readonly constraint: 'primary key' | 'unique constraint' | 'foreign key';
      readonly reason: 'changed' | 'dependent' | 'pruned' | 'invalid';
    }
  | {
      /** A partition that the manifest declares as a table of its own: DETACH PARTITION (it keeps its rows). */
      readonly kind: 'detach_partition';
      readonly table: QualifiedName;
      readonly partition: QualifiedName;
    }
  | {
      /** A table of its own that the manifest declares as a partition: ATTACH PARTITION. */
      readonly kind: 'attach_partition';
      readonly table: QualifiedName;
      readonly partition: Partition;
    }
  | {
      /**
       * DROP CONSTRAINT then ADD it again with another DEFERRABLE / INITIALLY DEFERRED (Citus
       * refuses ALTER TABLE … ALTER CONSTRAINT, and PostgreSQL 15 alters only foreign keys so).
       */
      readonly kind: 'replace_constraint';
      readonly table: QualifiedName;
      readonly name: string;
      readonly constraint:
        | { readonly kind: 'primary key' | 'unique'; readonly key: Key }
        | { readonly kind: 'foreign key'; readonly fk: ForeignKey; readonly refTable: QualifiedName };
    };
