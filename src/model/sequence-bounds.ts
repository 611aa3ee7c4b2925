// A sequence's options as PostgreSQL fills them in (CREATE SEQUENCE's defaults): both sides of the
// model keep only what differs from them, so that a manifest that says nothing about a bound and
// a database where the bound is its default compare equal, and any other value is a difference.
import type { Sequence } from './types.js';

/** Each integer type's range: a sequence's bounds must lie in it. */
export const RANGE: Readonly<Record<Sequence['type'], readonly [bigint, bigint]>> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
};

/** MINVALUE, MAXVALUE and START as PostgreSQL gives them (declared ones kept), as exact integers. */
export function effectiveBounds(s: Pick<Sequence, 'type' | 'increment' | 'min' | 'max' | 'start'>): {
  readonly min: bigint;
  readonly max: bigint;
  readonly start: bigint;
} {
  const up = BigInt(s.increment ?? 1) > 0n;
  const [lo, hi] = RANGE[s.type];
  // An ascending sequence starts at 1 and ends at its type's maximum; a descending one from -1 down.
  const min = s.min !== undefined ? BigInt(s.min) : up ? 1n : lo;
  const max = s.max !== undefined ? BigInt(s.max) : up ? hi : -1n;
  const start = s.start !== undefined ? BigInt(s.start) : up ? min : max;
  return { min, max, start };
}

/** What a default value of a bound is, given the sequence's type and increment (text from the catalog). */
export function isDefaultBound(
  which: 'min' | 'max',
  value: string,
  type: Sequence['type'],
  increment: string | undefined,
): boolean {
  const d = effectiveBounds({ type, increment });
  return BigInt(value) === (which === 'min' ? d.min : d.max);
}

/** The sequence with every option that equals PostgreSQL's default for it left out. */
export function normalSequence<S extends Sequence>(s: S): S {
  const increment = s.increment !== undefined && BigInt(s.increment) === 1n ? undefined : s.increment;
  const d = effectiveBounds({ type: s.type, increment });
  const min = s.min !== undefined && BigInt(s.min) !== d.min ? s.min : undefined;
  const max = s.max !== undefined && BigInt(s.max) !== d.max ? s.max : undefined;
  const start =
    s.start !== undefined && BigInt(s.start) !== effectiveBounds({ type: s.type, increment, min, max }).start;
  const out = { ...s } as Record<string, unknown>;
  for (const [k, v] of Object.entries({ increment, min, max, start: start ? s.start : undefined }))
    if (v === undefined) delete out[k];
    else out[k] = v;
  return out as S;
}
