// What a step holds while it works through a table's rows, and for about how long (plan/lock-estimate.ts).
import { describe, expect, it } from 'vitest';
import type { ClusterModel, Table } from '../../src/model/types.js';
import { lockText, RATES, stepLock, wantsShardSizes } from '../../src/plan/lock-estimate.js';
import type { Step } from '../../src/plan/steps/steps.js';

const t = (name: string, more: Partial<Table> = {}): Table => ({
  id: `public.${name}`,
  qname: { schema: 'public', name },
  columns: [],
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
  ...more,
});
const model: ClusterModel = {
  schemas: ['public'],
  objects: {},
  tables: {
    'public.local': t('local', { size: { rows: 1e6, bytes: 600e6 } }),
    'public.orders': t('orders', { distribution: { kind: 'hash', column: 'w', group: 'g' } }),
    'public.items': t('items', { distribution: { kind: 'reference' } }),
  },
  groups: { g: { name: 'g', shardCount: 32, anchor: 'public.orders', members: ['public.orders'] } },
  sequences: {},
  routines: {},
};
const q = (name: string) => ({ schema: 'public', name });
const type = (name: string): Step => ({
  kind: 'alter_column_type',
  table: q(name),
  column: 'c',
  type: 'bigint',
  from: 'integer',
});

describe('step locks and estimates', () => {
  it('a rewrite of a coordinator table: ACCESS EXCLUSIVE, its size over the rewrite rate', () => {
    expect(stepLock(type('local'), model)).toEqual({
      mode: 'ACCESS EXCLUSIVE',
      blocks: 'reads and writes',
      work: 'rewrite',
      tables: ['public.local'],
      bytes: 600e6,
      estimateMs: Math.round((600e6 / RATES.rewrite) * 1000),
    });
    expect(lockText(stepLock(type('local'), model)!, (b) => `${b / 1e6} MB`)).toBe(
      'ACCESS EXCLUSIVE on public.local (600 MB): reads and writes wait ~6 s',
    );
  });

  it('a distributed table: its shards from the group, its size only once read from the workers', () => {
    const without = stepLock(type('orders'), model)!;
    expect(without).toMatchObject({ shards: 32, work: 'rewrite' });
    expect(without.estimateMs).toBeUndefined();
    expect(wantsShardSizes([{ lock: without }], model)).toEqual(['public.orders']);
    const sized = stepLock(type('orders'), model, { 'public.orders': { shards: 32, bytes: 120e6 } })!;
    expect(sized).toMatchObject({ bytes: 120e6, estimateMs: 1200 });
    expect(wantsShardSizes([{ lock: sized }], model)).toEqual([]);
  });

  it('online steps block nothing; a foreign key locks both tables; a catalog change is a moment; a new table has none', () => {
    const ix: Step = {
      kind: 'create_index',
      table: q('local'),
      index: { columns: ['c'], unique: false, using: 'btree' },
      concurrently: true,
    };
    expect(lockText(stepLock(ix, model)!, (b) => `${b / 1e6} MB`)).toBe(
      'SHARE UPDATE EXCLUSIVE on public.local (600 MB): writes go on (~2 s)',
    );
    const fk: Step = {
      kind: 'add_foreign_key',
      table: q('orders'),
      refTable: q('items'),
      fk: { columns: ['i'], refTable: 'public.items', refColumns: ['id'] },
    };
    expect(stepLock(fk, model)).toMatchObject({
      mode: 'SHARE ROW EXCLUSIVE',
      blocks: 'writes',
      work: 'scan',
      tables: ['public.orders', 'public.items'],
      shards: 33,
    });
    const drop: Step = { kind: 'drop_column', table: q('orders'), column: 'c' };
    expect(lockText(stepLock(drop, model)!, String)).toBe(
      'ACCESS EXCLUSIVE on public.orders (32 shards): reads and writes wait a moment',
    );
    expect(stepLock(type('new_table'), model)).toBeUndefined();
  });
});
