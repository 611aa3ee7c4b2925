// Whether ALTER COLUMN … TYPE rewrites the table, by PostgreSQL's own rules
// (ATColumnChangeRequiresRewrite): not when the old type is binary-coercible to the new one
// (varchar → text, text → varchar, cidr → inet) and its length coercion, if any, is a no-op by the
// type's support function — varchar(n) → varchar(m ≥ n) or unlimited, numeric(p, s) →
// numeric(p' ≥ p, s) or unlimited, varbit(n) → varbit(m ≥ n), time/timestamp/interval precision
// raised or dropped; timestamp ↔ timestamptz under the plan's TimeZone UTC. Anything else (a USING, another cast, char(n), a domain) is taken to rewrite.
// Pinned against a server by pg_relation_filenode (test/integration/plan-truth.test.ts).
import { typePair } from './lossy-cast.js';

// Casts PostgreSQL makes without a function (pg_cast castmethod 'b'), between types without modifiers.
const BINARY: Readonly<Record<string, readonly string[]>> = {
  'character varying': ['text'],
  text: ['character varying'],
  cidr: ['inet'],
};
// Types whose length coercion is a no-op when the limit is raised or dropped.
const WIDENS_FREELY: ReadonlySet<string> = new Set([
  'character varying',
  'bit varying',
  'time without time zone',
  'time with time zone',
  'timestamp without time zone',
  'timestamp with time zone',
  'interval',
]);

const ZONES: ReadonlySet<string> = new Set(['timestamp without time zone', 'timestamp with time zone']);

/** True unless PostgreSQL changes the column's type from `from` to `to` without rewriting the table. */
export function typeChangeRewrites(from: string, to: string, using?: string): boolean {
  if (using !== undefined) return true;
  const pair = typePair(from, to);
  if (!pair) return true;
  const { a, b, ma, mb } = pair;
  if (a.sql.endsWith('[]') !== b.sql.endsWith('[]') || a.sql.endsWith('[]')) return a.sql !== b.sql;
  // timestamp ↔ timestamptz: no rewrite when the session's TimeZone is UTC, as the plan's is.
  if (
    ZONES.has(a.base) &&
    ZONES.has(b.base) &&
    a.base !== b.base &&
    (mb === undefined || (ma !== undefined && mb[0]! >= ma[0]!))
  )
    return false;
  if (a.base !== b.base) {
    // A binary-coercible cast into the new type without a limit (varchar(n) → text too).
    return !(mb === undefined && (BINARY[a.base] ?? []).includes(b.base));
  }
  if (mb === undefined) return !(WIDENS_FREELY.has(a.base) || a.base === 'numeric') && ma !== undefined;
  if (ma === undefined) return true;
  if (a.base === 'numeric') {
    const [p1 = 0, s1 = 0] = ma;
    const [p2 = 0, s2 = 0] = mb;
    return !(s2 === s1 && p2 >= p1);
  }
  return !(WIDENS_FREELY.has(a.base) && ma.length === 1 && mb.length === 1 && mb[0]! >= ma[0]!);
}
