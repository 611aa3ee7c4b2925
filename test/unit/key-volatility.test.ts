// A partition key expression calling what PostgreSQL 15 does not mark IMMUTABLE is a manifest
// error (sql/key-volatility.ts), not a failed apply: PostgreSQL refuses it only when it creates
// the table. Typed with the key's columns: date_trunc on a timestamptz column is STABLE, on a
// timestamp column IMMUTABLE.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser, parseStatements, type Node } from '../../src/sql/pg-parse.js';
import { mutableInKey } from '../../src/sql/key-volatility.js';

beforeAll(async () => {
  await loadParser();
});

const expr = (text: string): Node =>
  parseStatements(`SELECT ${text}`)[0]!.stmt.SelectStmt.targetList[0].ResTarget.val as Node;
const columns = new Map([
  ['at', 'timestamp with time zone'],
  ['local_at', 'timestamp without time zone'],
  ['day', 'date'],
  ['label', 'text'],
  ['n', 'integer'],
]);
const mutable = (text: string) => mutableInKey(expr(text), columns);

describe('a partition key expression', () => {
  it.each([
    ["date_trunc('day', at)", 'date_trunc(…timestamp with time zone…)'],
    ['(at)::date', 'the cast timestamp with time zone → date'],
    ['extract(year FROM at)', 'extract(…timestamp with time zone…)'],
    ['label::date', 'the cast text → date'],
    ["to_char(local_at, 'YYYY')", 'to_char()'],
    ['now()', 'now()'],
    ['current_date', 'CURRENT_DATE, CURRENT_TIMESTAMP and the like'],
    ["date_trunc('day', local_at::timestamptz)", 'the cast timestamp without time zone → timestamp with time zone'],
    ["lower(to_char(n, '999'))", 'to_char()'],
  ])('%s is not IMMUTABLE: %s', (text, found) => {
    expect(mutable(text)).toBe(found);
  });

  it.each([
    "date_trunc('day', local_at)",
    "date_trunc('day', at AT TIME ZONE 'UTC')",
    "(at AT TIME ZONE 'UTC')::date",
    'extract(year FROM day)',
    "'2024-01-01'::date",
    'lower(label)',
    'n % 10',
    'to_timestamp(n)',
    'my_func(at)',
  ])('%s passes (immutable, or not typed here)', (text) => {
    expect(mutable(text)).toBeUndefined();
  });
});
