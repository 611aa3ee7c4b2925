// The key step kinds (primary keys, unique constraints, foreign keys), part of the Step union in
// steps.ts; rendered by render-keys.ts.
import type { ForeignKey, Key } from '../model/types.js';
import type { QualifiedName } from '../sql/quote.js';

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
