// Partition bounds and keys in one canonical text, so the manifest's `{from, to}` and what
// PostgreSQL prints (pg_get_expr(relpartbound), read with TimeZone UTC and DateStyle ISO)
// compare as strings. Pure: no parser, no clock.
import { quoteIdent, quoteLiteral } from './quote.js';

export type BoundSpec =
  | { readonly kind: 'range'; readonly from: readonly string[]; readonly to: readonly string[] }
  | { readonly kind: 'list'; readonly in: readonly string[] }
  | { readonly kind: 'hash'; readonly modulus: number; readonly remainder: number }
  | { readonly kind: 'default' };

const BARE = new Set(['MINVALUE', 'MAXVALUE', 'NULL']);

const datum = (v: string): string => (BARE.has(v.toUpperCase()) ? v.toUpperCase() : quoteLiteral(v));

/** The canonical `FOR VALUES …` / `DEFAULT` text of a bound: what a plan prints and compares. */
export function boundText(b: BoundSpec): string {
  switch (b.kind) {
    case 'range':
      return `FOR VALUES FROM (${b.from.map(datum).join(', ')}) TO (${b.to.map(datum).join(', ')})`;
    case 'list':
      return `FOR VALUES IN (${b.in.map(datum).join(', ')})`;
    case 'hash':
      return `FOR VALUES WITH (modulus ${b.modulus}, remainder ${b.remainder})`;
    case 'default':
      return 'DEFAULT';
  }
}

/** Reads the datums of a parenthesised list as PostgreSQL prints them: 'text', numbers, MINVALUE, MAXVALUE, NULL, true. */
function readList(text: string, at: number): { values: string[]; end: number } | undefined {
  let i = at;
  const skip = (): void => {
    while (text[i] === ' ') i++;
  };
  skip();
  if (text[i] !== '(') return undefined;
  i++;
  const values: string[] = [];
  for (;;) {
    skip();
    if (text[i] === "'" || (text[i] === 'E' && text[i + 1] === "'")) {
      if (text[i] === 'E') i++;
      let v = '';
      i++;
      for (;;) {
        if (i >= text.length) return undefined;
        if (text[i] === "'" && text[i + 1] === "'") {
          v += "'";
          i += 2;
        } else if (text[i] === "'") {
          i++;
          break;
        } else v += text[i++];
      }
      values.push(v);
    } else {
      const m = /^[A-Za-z0-9_.+-]+/.exec(text.slice(i));
      if (!m) return undefined;
      values.push(m[0]);
      i += m[0].length;
    }
    skip();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ')') return { values, end: i + 1 };
    return undefined;
  }
}

/** Parses a bound as pg_get_expr prints it; undefined when it has a shape this tool does not read. */
export function parseBound(text: string): BoundSpec | undefined {
  const t = text.trim();
  if (t === 'DEFAULT') return { kind: 'default' };
  const hash = /^FOR VALUES WITH \(modulus (\d+), remainder (\d+)\)$/.exec(t);
  if (hash) return { kind: 'hash', modulus: Number(hash[1]), remainder: Number(hash[2]) };
  if (t.startsWith('FOR VALUES IN ')) {
    const l = readList(t, 'FOR VALUES IN '.length);
    return l && l.end === t.length ? { kind: 'list', in: l.values } : undefined;
  }
  if (t.startsWith('FOR VALUES FROM ')) {
    const from = readList(t, 'FOR VALUES FROM '.length);
    if (!from || !t.startsWith(' TO ', from.end)) return undefined;
    const to = readList(t, from.end + ' TO '.length);
    return to && to.end === t.length ? { kind: 'range', from: from.values, to: to.values } : undefined;
  }
  return undefined;
}

/** A bound as PostgreSQL prints it, in canonical text (unknown shapes kept as printed). */
export const canonicalBound = (printed: string): string => {
  const b = parseBound(printed);
  return b ? boundText(b) : printed.trim();
};

/** PARTITION BY: its method and plain key columns; undefined when it is not that shape (expressions, opclasses). */
export function parsePartitionKey(text: string): { method: 'RANGE' | 'LIST' | 'HASH'; columns: string[] } | undefined {
  const m = /^\s*(range|list|hash)\s*\((.*)\)\s*$/i.exec(text);
  if (!m) return undefined;
  const columns: string[] = [];
  for (const raw of m[2]!.split(',')) {
    const c = raw.trim();
    if (/^[a-z_][a-z0-9_$]*$/.test(c)) columns.push(c);
    else if (/^"([^"]|"")+"$/.test(c)) columns.push(c.slice(1, -1).replace(/""/g, '"'));
    else return undefined;
  }
  return columns.length > 0 ? { method: m[1]!.toUpperCase() as 'RANGE' | 'LIST' | 'HASH', columns } : undefined;
}

/** The canonical PARTITION BY text (`RANGE (ts)`), as pg_get_partkeydef prints plain columns. */
export const partitionKeyText = (k: { method: string; columns: readonly string[] }): string =>
  `${k.method} (${k.columns.map(quoteIdent).join(', ')})`;

export const canonicalPartitionKey = (text: string): string => {
  const k = parsePartitionKey(text);
  return k ? partitionKeyText(k) : text.trim();
};

const TIME_TYPES: Readonly<Record<string, 'tz' | 'ts' | 'date'>> = {
  'timestamp with time zone': 'tz',
  'timestamp without time zone': 'ts',
  date: 'date',
};

/** Whether a column type is one time partitions can be kept by. */
export const isTimeType = (base: string | undefined): boolean => base !== undefined && base in TIME_TYPES;

const pad = (n: number): string => String(n).padStart(2, '0');
const isoDate = (d: Date): string => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const isoTime = (d: Date): string => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/**
 * A bound value written in the manifest as PostgreSQL prints it for a key of `base` type under
 * TimeZone UTC and DateStyle ISO: '2024-01-01' on a timestamptz key is '2024-01-01 00:00:00+00'.
 * Values without an offset are UTC (the plan sets TimeZone to UTC where it creates partitions).
 */
export function normalizeBoundValue(v: string, base: string | undefined): string {
  const kind = base ? TIME_TYPES[base] : undefined;
  if (!kind || BARE.has(v.toUpperCase())) return v;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(v.trim());
  if (!m) return v;
  const offset = m[3] === undefined || m[3] === 'Z' ? 'Z' : m[3].length === 3 ? `${m[3]}:00` : m[3];
  const d = new Date(`${m[1]}T${m[2] ?? '00:00:00'}${m[2]?.length === 5 ? ':00' : ''}${offset}`);
  if (Number.isNaN(d.getTime())) return v;
  if (kind === 'date') return isoDate(d);
  return `${isoDate(d)} ${isoTime(d)}${kind === 'tz' ? '+00' : ''}`;
}

/** A bound value PostgreSQL printed for a time key, as a Date (UTC); undefined when it is not one. */
export function boundDate(v: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}:\d{2}))?(?:\+00)?$/.exec(v);
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2] ?? '00:00:00'}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A manifest interval (`1 day`, `6 hours`, `1 month`) added `times` times to a date, in UTC. */
export function addInterval(d: Date, interval: string, times: number): Date {
  const m = /^\s*(\d+)\s*(minute|hour|day|week|month|year)s?\s*$/i.exec(interval);
  if (!m) throw new Error(`not an interval: ${interval}`);
  const n = Number(m[1]) * times;
  const out = new Date(d.getTime());
  switch (m[2]!.toLowerCase()) {
    case 'minute':
      out.setUTCMinutes(out.getUTCMinutes() + n);
      break;
    case 'hour':
      out.setUTCHours(out.getUTCHours() + n);
      break;
    case 'day':
      out.setUTCDate(out.getUTCDate() + n);
      break;
    case 'week':
      out.setUTCDate(out.getUTCDate() + 7 * n);
      break;
    case 'month':
      out.setUTCMonth(out.getUTCMonth() + n);
      break;
    default:
      out.setUTCFullYear(out.getUTCFullYear() + n);
  }
  return out;
}

/** A Date as a timestamptz literal's text in UTC: '2024-01-01 00:00:00+00'. */
export const timestampText = (d: Date): string => `${isoDate(d)} ${isoTime(d)}+00`;

/** The interval in PostgreSQL's own words (`1 day`), for SQL. */
export const intervalText = (interval: string): string => interval.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * True when a declared bound is the one the cluster has. Declared values of a key whose type the
 * manifest cannot know (an expression's) are read again with the cluster's key types, as
 * PostgreSQL printed them (`'2024-01-01'` is `'2024-01-01 00:00:00'` on a timestamp key).
 */
export function sameBound(desired: string, actual: string, keyTypes: readonly string[] | undefined): boolean {
  if (desired === actual) return true;
  const b = keyTypes ? parseBound(desired) : undefined;
  if (!b || !keyTypes) return false;
  const norm = (vals: readonly string[]): string[] => vals.map((v, i) => normalizeBoundValue(v, keyTypes[i]));
  const again: BoundSpec =
    b.kind === 'range'
      ? { kind: 'range', from: norm(b.from), to: norm(b.to) }
      : b.kind === 'list'
        ? { kind: 'list', in: b.in.map((v) => normalizeBoundValue(v, keyTypes[0])) }
        : b;
  return boundText(again) === actual;
}
