// An identity column's sequence options (START, INCREMENT, MINVALUE, MAXVALUE, CACHE, CYCLE) as
// the model holds them: only those that differ from what PostgreSQL gives a new identity column
// of the column's type, so that a manifest saying nothing and a database at the defaults compare
// equal (the same rules as a sequence's, model/sequence-bounds.ts).
import { effectiveBounds, normalSequence } from './sequence-bounds.js';
import type { IdentityOptions, Sequence } from './types.js';

export type IntegerType = Sequence['type'];

/** Whether a column type is one an identity column may have (its sequence takes that type). */
export const isIntegerType = (t: string): t is IntegerType => t === 'smallint' || t === 'integer' || t === 'bigint';

/** The options as a sequence of the column's type (cache 1 and NO CYCLE where not given). */
export function identitySequence(type: IntegerType, o: IdentityOptions | undefined): Sequence {
  return {
    id: '',
    qname: { schema: '', name: '' },
    type,
    cache: o?.cache ?? '1',
    cycle: o?.cycle ?? false,
    ...(o?.start !== undefined ? { start: o.start } : {}),
    ...(o?.increment !== undefined ? { increment: o.increment } : {}),
    ...(o?.min !== undefined ? { min: o.min } : {}),
    ...(o?.max !== undefined ? { max: o.max } : {}),
  };
}

/** The options with every default left out; undefined when none is left. */
export function normalIdentityOptions(type: IntegerType, o: IdentityOptions | undefined): IdentityOptions | undefined {
  const s = normalSequence(identitySequence(type, o));
  const out: IdentityOptions = {
    ...(s.start !== undefined ? { start: s.start } : {}),
    ...(s.increment !== undefined ? { increment: s.increment } : {}),
    ...(s.min !== undefined ? { min: s.min } : {}),
    ...(s.max !== undefined ? { max: s.max } : {}),
    ...(s.cache !== '1' ? { cache: s.cache } : {}),
    ...(s.cycle ? { cycle: true } : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Whether two (normal) option sets are the same. */
export function sameIdentityOptions(a: IdentityOptions | undefined, b: IdentityOptions | undefined): boolean {
  const keys = ['start', 'increment', 'min', 'max', 'cache', 'cycle'] as const;
  return keys.every((k) => a?.[k] === b?.[k]);
}

/** MINVALUE and MAXVALUE as PostgreSQL fills them in for these options. */
export function identityBounds(type: IntegerType, o: IdentityOptions | undefined): { min: bigint; max: bigint } {
  const { min, max } = effectiveBounds(identitySequence(type, o));
  return { min, max };
}
