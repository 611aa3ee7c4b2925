// PARTITION BY on expressions, collations and operator classes (sql/partition-key.ts): read with
// PostgreSQL's grammar, compared by parse tree so the manifest's spelling and pg_get_partkeydef's
// are one key, bounds of an expression's key read with the cluster's key types, and the rules
// PostgreSQL holds such a table to checked when the manifest loads.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { readPartitionKey, samePartitionKey } from '../../src/sql/partition-key.js';
import { sameBound } from '../../src/sql/partition-bound.js';
import { load, problems } from '../support/manifest.js';

beforeAll(loadParser);

describe('a partition key', () => {
  it('reads columns, expressions, their columns and a cast at the top', () => {
    expect(readPartitionKey('range (ts)')).toEqual({ method: 'RANGE', elements: [{ column: 'ts', reads: ['ts'] }] });
    expect(readPartitionKey('list ((at::date), lower(name) COLLATE "C", code text_pattern_ops)')).toEqual({
      method: 'LIST',
      elements: [
        { expression: true, reads: ['at'], castTo: 'date' },
        { expression: true, reads: ['name'], collationOrOpclass: true },
        { column: 'code', reads: ['code'], collationOrOpclass: true },
      ],
    });
  });

  it('reads a column in parentheses as the column, as PostgreSQL stores it', () => {
    expect(readPartitionKey('range ((ts))')).toEqual({ method: 'RANGE', elements: [{ column: 'ts', reads: ['ts'] }] });
  });

  it("is the same key in the manifest's spelling and in pg_get_partkeydef's", () => {
    expect(
      samePartitionKey(
        "range ((date_trunc('day', at AT TIME ZONE 'UTC')))",
        "RANGE (date_trunc('day'::text, (at AT TIME ZONE 'UTC'::text)))",
      ),
    ).toBe(true);
    expect(samePartitionKey('range ((a + b) / 2)', 'RANGE (((a + b) / 2))')).toBe(false); // not a key: `(a + b) / 2` needs its own parentheses
    expect(samePartitionKey('range (((a + b) / 2))', 'RANGE ((((a + b) / 2)))')).toBe(true);
    expect(samePartitionKey('list (name collate "C")', 'LIST (name COLLATE "C")')).toBe(true);
    expect(samePartitionKey('range ((a))', 'RANGE (a)')).toBe(true);
    expect(samePartitionKey('range (lower(name))', 'RANGE (upper(name))')).toBe(false);
    expect(samePartitionKey('range (name)', 'RANGE (name COLLATE "C")')).toBe(false);
    expect(samePartitionKey('range (name)', 'LIST (name)')).toBe(false);
    // PostgreSQL prints a varchar column relabelled as text; another cast is another key.
    const types = new Map([
      ['tag', 'character varying'],
      ['at', 'timestamp with time zone'],
    ]);
    expect(samePartitionKey('list (lower(tag))', 'LIST (lower((tag)::text))', types)).toBe(true);
    expect(samePartitionKey('list (lower(tag))', 'LIST (lower((tag)::text))')).toBe(false);
    expect(samePartitionKey('range ((at::date))', 'RANGE (at)', types)).toBe(false);
    expect(samePartitionKey('range ((at::text))', 'RANGE (at)', types)).toBe(false);
  });

  it("compares an expression's bounds with the cluster's key types", () => {
    const actual = "FOR VALUES FROM ('2024-01-01 00:00:00') TO ('2024-02-01 00:00:00')";
    expect(sameBound("FOR VALUES FROM ('2024-01-01') TO ('2024-02-01')", actual, ['timestamp without time zone'])).toBe(
      true,
    );
    expect(sameBound("FOR VALUES FROM ('2024-01-01') TO ('2024-03-01')", actual, ['timestamp without time zone'])).toBe(
      false,
    );
    expect(sameBound("FOR VALUES FROM ('2024-01-01') TO ('2024-02-01')", actual, undefined)).toBe(false);
    expect(sameBound("FOR VALUES IN ('a')", "FOR VALUES IN ('a')", ['text'])).toBe(true);
  });
});

const table = (key: string, extra = ''): string => `version: 1
tables:
  ev:
    local: true
    columns: { id: integer, at: timestamptz, name: text }
    partition_by: ${JSON.stringify(key)}
${extra}`;

describe('a manifest table partitioned by an expression', () => {
  it('keeps the key as written and reads its bounds as dates when a cast says so', async () => {
    const key = "range (((at AT TIME ZONE 'UTC')::date))";
    const m = await load(table(key, "    partitions:\n      ev_1: { from: '2024-01-01 10:00', to: '2024-02-01' }"));
    expect(m.desired.tables['public.ev']).toMatchObject({
      partitionBy: key,
      partitions: [{ name: 'ev_1', bound: "FOR VALUES FROM ('2024-01-01') TO ('2024-02-01')" }],
    });
  });

  it('refuses a key PostgreSQL would refuse, saying where and why', async () => {
    expect(await problems(table('range (lower(nme))'))).toEqual([
      expect.stringMatching(/partition_by.*partition key column "nme" is not a column of this table/),
    ]);
    // at is timestamptz: its cast to date depends on TimeZone (STABLE), which PostgreSQL refuses in a key.
    expect(await problems(table('range ((at::date))'))).toEqual([
      expect.stringMatching(/partition_by.*the cast timestamp with time zone → date is not IMMUTABLE/),
    ]);
    expect(await problems(table('range (lower(name)', ''))).toEqual([
      expect.stringMatching(/partition_by.*not "range \(lower\(name\)": syntax error at end of input/),
    ]);
    expect(await problems(table('range (lower(name))', '    primary_key: [id]'))).toEqual([
      expect.stringMatching(
        /primary_key.*a partitioned table whose key holds an expression \(range \(lower\(name\)\)\) cannot have a primary key/,
      ),
    ]);
    expect(await problems(table('list (name collate "C")', '    time_partitions: { interval: 1 day }'))).toEqual([
      expect.stringMatching(/time_partitions.*time partitions need PARTITION BY RANGE on one column/),
    ]);
  });
});
