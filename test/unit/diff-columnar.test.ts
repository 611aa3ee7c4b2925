// Columnar options on pairs of tables: what is set, what is named, what prune resets.
import { describe, expect, it } from 'vitest';
import type { ColumnarOptions, Table } from '../../src/model/types.js';
import { columnarOptionSteps } from '../../src/plan/diff/columnar.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';

const DEFAULTS: ColumnarOptions = {
  compression: 'zstd',
  compressionLevel: 3,
  stripeRowLimit: 150000,
  chunkGroupRowLimit: 10000,
};

function table(more: Partial<Table>): Table {
  return {
    id: 'public.m',
    qname: { schema: 'public', name: 'm' },
    columns: [{ name: 'id', type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: false }],
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution: { kind: 'local' },
    accessMethod: 'columnar',
    ...more,
  };
}

const run = (t: Table, a: Table | undefined, defaults: ColumnarOptions | null = DEFAULTS, prune = false) => {
  const r = columnarOptionSteps(t, a, defaults ?? undefined, prune);
  return { sql: r.steps.flatMap((s) => renderSql(s)), unmanaged: r.unmanaged };
};

describe('columnar options', () => {
  it('a new table gets the declared options that are not the defaults; offline (no defaults known) all of them', () => {
    const t = table({ columnarOptions: { compression: 'lz4', compressionLevel: 3 } });
    expect(run(t, undefined).sql).toEqual(["ALTER TABLE public.m SET (columnar.compression = 'lz4')"]);
    expect(run(t, undefined, null).sql).toEqual([
      "ALTER TABLE public.m SET (columnar.compression = 'lz4', columnar.compression_level = 3)",
    ]);
  });

  it('an existing table: a declared option that differs is set; an undeclared one off its default is named, or reset with prune', () => {
    const t = table({ columnarOptions: { stripeRowLimit: 20000 } });
    const a = table({ columnarOptions: { ...DEFAULTS, compression: 'pglz', chunkGroupRowLimit: 5000 } });
    expect(run(t, a)).toEqual({
      sql: ['ALTER TABLE public.m SET (columnar.stripe_row_limit = 20000)'],
      unmanaged: [
        'columnar option columnar.compression = pglz of table public.m',
        'columnar option columnar.chunk_group_row_limit = 5000 of table public.m',
      ],
    });
    expect(run(t, a, DEFAULTS, true)).toEqual({
      sql: [
        'ALTER TABLE public.m SET (columnar.stripe_row_limit = 20000)',
        'ALTER TABLE public.m RESET (columnar.compression, columnar.chunk_group_row_limit)',
      ],
      unmanaged: [],
    });
    expect(run(t, table({ columnarOptions: { ...DEFAULTS, stripeRowLimit: 20000 } }))).toEqual({
      sql: [],
      unmanaged: [],
    });
  });

  it('a heap table rewritten to columnar starts from the defaults; a table declared without columns is compared on what it names only; a heap table has none', () => {
    const t = table({ columnarOptions: { compression: 'zstd', compressionLevel: 9 } });
    expect(run(t, table({ accessMethod: undefined })).sql).toEqual([
      'ALTER TABLE public.m SET (columnar.compression_level = 9)',
    ]);
    const bare = table({ columns: undefined, columnarOptions: {} });
    expect(run(bare, table({ columnarOptions: { ...DEFAULTS, compression: 'lz4' } }), DEFAULTS, true)).toEqual({
      sql: [],
      unmanaged: [],
    });
    expect(run(table({ accessMethod: undefined }), table({ accessMethod: undefined }))).toEqual({
      sql: [],
      unmanaged: [],
    });
  });
});
