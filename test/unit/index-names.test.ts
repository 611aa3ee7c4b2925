// The names PostgreSQL chooses for an index and for a partition's copies of its parent's indexes
// (model/key-names.ts, sql/index-column-names.ts). Each expected name below was read off
// PostgreSQL 15 (the corpus cases 546-550 hold them against a live server too).
import { beforeAll, describe, expect, it } from 'vitest';
import { chosenIndexName, isChosenIndexName, nextIndexName } from '../../src/model/key-names.js';
import { indexColumnNames } from '../../src/sql/index-column-names.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

const LONG = 'a_very_long_partition_name_that_goes_on_and_on_and_on_forever_x';

describe('the name PostgreSQL chooses for an index', () => {
  it.each([
    ['t2_p1', 'idx', ['at'], 0, 't2_p1_at_idx'],
    ['t2_p1', 'idx', ['at'], 1, 't2_p1_at_idx1'],
    ['t2_p1', 'pkey', ['id', 'at'], 0, 't2_p1_pkey'],
    ['t2_p1', 'key', ['name', 'at'], 0, 't2_p1_name_at_key'],
    [LONG, 'idx', ['id', 'at', 'name'], 0, 'a_very_long_partition_name_that_goes_on_and_on_a_id_at_name_idx'],
    [LONG, 'idx', ['at'], 1, 'a_very_long_partition_name_that_goes_on_and_on_and_on_f_at_idx1'],
    [LONG, 'pkey', ['id'], 0, 'a_very_long_partition_name_that_goes_on_and_on_and_on_fore_pkey'],
    [LONG, 'key', ['name', 'at'], 0, 'a_very_long_partition_name_that_goes_on_and_on_and__name_at_key'],
  ] as const)('%s %s %j pass %i: %s', (table, label, columns, pass, name) => {
    expect(chosenIndexName(table, label, columns, pass)).toBe(name);
    expect(isChosenIndexName(name, table, label, columns)).toBe(true);
  });

  it('a name PostgreSQL would not choose is not taken for one; the next free one is', () => {
    expect(isChosenIndexName('ev_2024_custom', 'ev_2024', 'idx', ['at'])).toBe(false);
    expect(isChosenIndexName('ev_2024_at_idx_old', 'ev_2024', 'idx', ['at'])).toBe(false);
    const taken = new Set(['ev_2024_at_idx', 'ev_2024_at_idx1']);
    expect(nextIndexName('ev_2024', 'idx', ['at'], (n) => taken.has(n))).toBe('ev_2024_at_idx2');
  });

  it('cuts a name of multibyte characters on a character boundary', () => {
    const name = chosenIndexName('é'.repeat(40), 'idx', ['ü'.repeat(40)]);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
    expect(name).toBe(`${'é'.repeat(14)}_${'ü'.repeat(14)}_idx`);
  });
});

describe("an index's column names, as PostgreSQL names them", () => {
  it.each([
    ['CREATE INDEX i ON app.ev (at)', ['at']],
    [
      'CREATE INDEX i ON app.ev USING btree (lower(note), (n::text), COALESCE(n, 0)) INCLUDE (id)',
      ['lower', 'n', 'coalesce', 'id'],
    ],
    ["CREATE INDEX i ON app.ev (('a'::text), (n + 1), (n * 2))", ['text', 'expr', 'expr1']],
    ['CREATE INDEX i ON app.ev (lower(a), lower(b), lower(c))', ['lower', 'lower1', 'lower2']],
    [
      'CREATE INDEX i ON app.ev ((CASE WHEN n > 0 THEN n END), (note COLLATE "C"), GREATEST(a, b), NULLIF(a, b))',
      ['case', 'note', 'greatest', 'nullif'],
    ],
  ])('%s', (sql, names) => {
    expect(indexColumnNames(sql)).toEqual(names);
  });

  it('is undefined for what is not one CREATE INDEX', () => {
    expect(indexColumnNames('CREATE TABLE t (a int)')).toBeUndefined();
    expect(indexColumnNames('not sql')).toBeUndefined();
  });
});
