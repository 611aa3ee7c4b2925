// Prune drops tables so that each goes before what it references or inherits from.
import { describe, expect, it } from 'vitest';
import type { ClusterModel, Table } from '../../src/model/types.js';
import { pruneBlockers, pruneOrder } from '../../src/plan/order/prune-order.js';

const table = (name: string, refs: string[] = [], inherits: string[] = []): Table => ({
  id: `app.${name}`,
  qname: { schema: 'app', name },
  columns: [],
  unique: [],
  indexes: [],
  foreignKeys: refs.map((r) => ({
    name: `${name}_${r}_fkey`,
    columns: ['x'],
    refTable: `app.${r}`,
    refColumns: ['id'],
  })),
  distribution: { kind: 'local' },
  ...(inherits.length > 0 ? { inherits: inherits.map((p) => `app.${p}`) } : {}),
});

const model = (tables: Table[]): ClusterModel => ({
  schemas: ['app'],
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: {},
  objects: {},
});

describe('prune order', () => {
  it('drops referencing and inheriting tables before what they need', () => {
    const tables = [
      table('a'),
      table('b', ['a']),
      table('c', ['b', 'a']),
      table('base'),
      table('derived', [], ['base']),
    ];
    expect(pruneOrder(tables).map((t) => t.qname.name)).toEqual(['c', 'b', 'a', 'derived', 'base']);
  });

  it('keeps name order for a cycle of foreign keys', () => {
    expect(pruneOrder([table('x', ['y']), table('y', ['x'])]).map((t) => t.qname.name)).toEqual(['y', 'x']);
  });

  it('names a kept table whose undeclared foreign key or parent is pruned', () => {
    const kept = table('k', ['a'], ['base']);
    const actual = model([table('a'), table('base'), kept]);
    const desired = model([{ ...kept, foreignKeys: [] }]);
    const problems = pruneBlockers([table('a'), table('base')], desired, actual, new Set());
    expect(problems.map((p) => `${p.object}: ${p.message.split(',')[0]}`)).toEqual([
      'table app.k: its foreign key k_a_fkey references app.a',
      'table app.k: it inherits from app.base',
    ]);
  });
});
