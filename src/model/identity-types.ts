// The options of an identity column's sequence, part of the model's Column (types.ts).

/** START, INCREMENT, MINVALUE, MAXVALUE, CACHE and CYCLE of an identity column's sequence. */
export interface IdentityOptions {
  readonly start?: number;
  readonly increment?: number;
  readonly min?: number;
  readonly max?: number;
  readonly cache?: number;
  readonly cycle?: boolean;
}

/**
 * Where an identity column's sequence is, as pg_sequences says (Column.identityLast, actual only):
 * its last value as text (a bigint), `unused` when nextval was never called (RESTART then changes
 * nothing a row holds), or `unknown` when the reading role may not read it.
 */
export type IdentityLast = string;
