// How ALTER COLUMN … TYPE converts a column's values. Without USING, PostgreSQL takes only an
// implicit or assignment cast ("column … cannot be cast automatically to type …"): text →
// integer, text → enum and enum → enum need `USING col::type` (from a string type, PostgreSQL's
// input function) or `USING col::pg_catalog.text::type` (through the text form, for user-defined types).
// Built-in types that have no cast between them (date → integer) are a problem, never a plan that
// fails at apply. Whether the values fit is known only at apply: such a change carries drops_data.
import { parseTypeText } from '../../sql/pg-parse.js';
import { quoteIdent } from '../../sql/quote.js';

const NUMBERS = ['smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision'];
const STRINGS = ['text', 'character varying', 'character', 'name', 'bpchar', 'varchar'];
const TIMES = [
  'date',
  'timestamp without time zone',
  'timestamp with time zone',
  'time without time zone',
  'time with time zone',
  'interval',
];
const OTHERS = ['boolean', 'json', 'jsonb', 'uuid', 'bytea', 'inet', 'cidr', 'macaddr', 'xml', 'oid'];
const FAMILY = new Map<string, string>([
  ...NUMBERS.map((t): [string, string] => [t, 'number']),
  ...TIMES.map((t): [string, string] => [t, 'time']),
  ...OTHERS.map((t): [string, string] => [t, t === 'jsonb' ? 'json' : t === 'cidr' ? 'inet' : t]),
]);

// Casts PostgreSQL applies without USING between time types (pg_cast, castcontext 'i' or 'a').
const TIME_CASTS = new Set([
  'date>timestamp without time zone',
  'date>timestamp with time zone',
  'timestamp without time zone>timestamp with time zone',
  'timestamp with time zone>timestamp without time zone',
  'timestamp without time zone>date',
  'timestamp with time zone>date',
  'timestamp without time zone>time without time zone',
  'timestamp with time zone>time without time zone',
  'timestamp with time zone>time with time zone',
  'time without time zone>time with time zone',
  'time with time zone>time without time zone',
  'time without time zone>interval',
  'interval>time without time zone',
]);

export type ColumnCast = { readonly using?: string } | { readonly problem: string };

/** The USING a type change of `column` from `from` to `to` needs (none: an automatic cast), or why none works. */
export function columnCast(column: string, from: string, to: string): ColumnCast {
  let a: string;
  let b: string;
  try {
    const [x, y] = [parseTypeText(from), parseTypeText(to)];
    if (x.sql.endsWith('[]') !== y.sql.endsWith('[]')) return { problem: `${from} and ${to}: one is an array` };
    [a, b] = [x.base, y.base];
  } catch {
    return {};
  }
  const col = quoteIdent(column);
  if (a === b || STRINGS.includes(b)) return {}; // a type modifier, or to a string type (assignment)
  if (STRINGS.includes(a)) return { using: `${col}::${to}` };
  const [fa, fb] = [FAMILY.get(a), FAMILY.get(b)];
  // A user-defined type (enum, domain, composite) on either side: through its text form.
  if (fa === undefined || fb === undefined) return { using: `${col}::pg_catalog.text::${to}` };
  if (fa === fb && (fa !== 'time' || TIME_CASTS.has(`${a}>${b}`))) return {};
  // The one explicit cast across families: integer <-> boolean.
  if ((a === 'integer' && b === 'boolean') || (a === 'boolean' && b === 'integer')) return { using: `${col}::${to}` };
  return { problem: `PostgreSQL has no cast from ${from} to ${to}` };
}
