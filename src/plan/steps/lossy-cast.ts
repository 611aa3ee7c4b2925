// Whether changing a column's type can lose what its values hold (numeric → integer rounds,
// timestamptz → date truncates, varchar(20) → varchar(5) fails or cuts). Conservative: a change
// that is not a known widening is lossy.
import { parseTypeText, type TypeInfo } from '../../sql/pg-parse.js';

// Casts from a type (no modifiers) to a type that holds every value it can hold.
const WIDER: Readonly<Record<string, readonly string[]>> = {
  smallint: ['integer', 'bigint', 'numeric', 'real', 'double precision'],
  integer: ['bigint', 'numeric', 'double precision'],
  bigint: ['numeric'],
  real: ['double precision'],
  'character varying': ['text'],
  text: ['character varying'],
  date: ['timestamp without time zone', 'timestamp with time zone'],
};

// The digits of each integer type's largest value (32767, 2147483647, 9223372036854775807).
const INTEGER_DIGITS: Readonly<Record<string, number>> = { smallint: 5, integer: 10, bigint: 19 };

const mods = (t: TypeInfo): number[] | undefined => {
  const m = /\(([\d,]+)\)/.exec(t.sql);
  return m ? m[1]!.split(',').map(Number) : undefined;
};

/** Both types of a change read, with their modifiers (`numeric(12,2)`: [12, 2]); undefined when one does not parse. */
export function typePair(
  from: string,
  to: string,
): { a: TypeInfo; b: TypeInfo; ma: number[] | undefined; mb: number[] | undefined } | undefined {
  try {
    const a = parseTypeText(from);
    const b = parseTypeText(to);
    return { a, b, ma: mods(a), mb: mods(b) };
  } catch {
    return undefined;
  }
}

/** True unless every value of `from` is kept by a cast to `to` (type texts as the plan has them). */
export function lossyCast(from: string, to: string): boolean {
  const pair = typePair(from, to);
  if (!pair) return true;
  const { a, b, ma, mb } = pair;
  if (a.base === b.base) {
    if (mb === undefined) return false; // no limit on the new type
    if (ma === undefined) return true;
    if (a.base === 'numeric') {
      const [p1 = 0, s1 = 0] = ma;
      const [p2 = 0, s2 = 0] = mb;
      return !(s2 >= s1 && p2 - s2 >= p1 - s1);
    }
    return !(ma.length === 1 && mb.length === 1 && mb[0]! >= ma[0]!);
  }
  // An integer type into numeric(p, s) with room for its largest value's digits before the point.
  if (b.base === 'numeric' && mb !== undefined && ma === undefined && INTEGER_DIGITS[a.base] !== undefined) {
    const [p = 0, s = 0] = mb;
    return p - s < INTEGER_DIGITS[a.base]!;
  }
  // Into a type with a limit (numeric(10,2), varchar(5)), only from the same type is known safe.
  if (mb !== undefined) return true;
  if (ma !== undefined && a.base !== 'character varying') return true;
  return !(WIDER[a.base] ?? []).includes(b.base);
}
