// The options of an identity column's sequence, part of the model's Column (types.ts).

/**
 * An integer as its decimal text (`-9223372036854775808`): a sequence's options are kept exactly,
 * beyond 2^53 too, and compared as text (the catalog prints them so; the manifest's are made so).
 */
export type IntText = string;

/** START, INCREMENT, MINVALUE, MAXVALUE, CACHE and CYCLE of an identity column's sequence. */
export interface IdentityOptions {
  readonly start?: IntText;
  readonly increment?: IntText;
  readonly min?: IntText;
  readonly max?: IntText;
  readonly cache?: IntText;
  readonly cycle?: boolean;
}

/**
 * Where an identity column's sequence is, as pg_sequences says (Column.identityLast, actual only):
 * its last value as text (a bigint), `unused` when nextval was never called (RESTART then changes
 * nothing a row holds), or `unknown` when the reading role may not read it.
 */
export type IdentityLast = string;
