// Keys and foreign keys of the model (types.ts re-exports them).

/** DEFERRABLE [INITIALLY DEFERRED] of a key or foreign key; both absent: NOT DEFERRABLE (checked per statement). */
export interface Deferral {
  readonly deferrable?: boolean;
  /** INITIALLY DEFERRED (checked at COMMIT unless SET CONSTRAINTS says otherwise); implies deferrable. */
  readonly initiallyDeferred?: boolean;
}

/** A primary key or unique constraint. Desired: `name` only when declared (else not compared); actual: always. */
export interface Key extends Deferral {
  readonly name?: string;
  readonly columns: readonly string[];
  /** A unique constraint's NULLS NOT DISTINCT (rows whose columns are all NULL are equal). */
  readonly nullsNotDistinct?: boolean;
  /** INCLUDE: columns its index stores beside the key's, not part of it. */
  readonly include?: readonly string[];
  /** Actual only: its index is not valid (not enforced), so it is dropped and added again. */
  readonly invalid?: boolean;
  /** In a plan's step only: USING INDEX TABLESPACE (quoted), where a 'tablespace' object puts its index. */
  readonly tablespace?: string;
}

export type FkAction = 'no action' | 'restrict' | 'cascade' | 'set null' | 'set default';

export interface ForeignKey extends Deferral {
  readonly name?: string;
  readonly columns: readonly string[];
  readonly refTable: string; // table id
  readonly refColumns: readonly string[];
  readonly onDelete?: FkAction;
  readonly onUpdate?: FkAction;
  /** MATCH FULL (absent: MATCH SIMPLE). */
  readonly matchFull?: boolean;
  /**
   * Added NOT VALID and not validated (actual); desired: declared `not_valid`, so added NOT VALID
   * (rows already there are not checked) and never validated by a plan.
   */
  readonly notValid?: boolean;
}
