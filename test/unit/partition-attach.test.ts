// A declared partition that is a table of its own in the cluster is attached when PostgreSQL
// would take it, else a problem; a declared table that is a partition in the cluster is a problem.
import { describe, expect, it } from 'vitest';
import type { ClusterModel, Column, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';

const col = (name: string, sql: string, notNull = false): Column => ({
  name,
  type: { base: sql, sql, serial: false },
  notNull,
});
const table = (name: string, columns: Column[], extra: Partial<Table> = {}): Table => ({
  id: `app.${name}`,
  qname: { schema: 'app', name },
  columns,
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
  ...extra,
});
const model = (tables: Table[]): ClusterModel => ({
  schemas: ['app'],
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: {},
  objects: {},
});
const COLS = [col('d', 'date', true), col('x', 'integer')];
const BOUND = "FOR VALUES FROM ('2020-01-01') TO ('2021-01-01')";
const parent = (partitions: string[]): Table =>
  table('p', COLS, { partitionBy: 'RANGE (d)', partitions: partitions.map((name) => ({ name, bound: BOUND })) });

describe('attaching and detaching partitions', () => {
  it('attaches a table of its own with the same columns, and does not prune it', () => {
    const r = diff(model([parent(['p1'])]), model([parent([]), table('p1', COLS)]), { prune: true });
    expect(r.problems).toEqual([]);
    expect(r.steps.flatMap((s) => renderSql(s))).toEqual([`ALTER TABLE app.p ATTACH PARTITION app.p1 ${BOUND}`]);
  });

  it('names a table PostgreSQL would not attach', () => {
    const r = diff(model([parent(['p1'])]), model([parent([]), table('p1', [col('d', 'date'), col('x', 'integer')])]));
    expect(r.steps).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.object, p.message.split(':')[0]])).toEqual([
      [
        'partition_attach',
        'table app.p1',
        'is a table of its own in the cluster and a partition of app.p in the manifest, but its column d is not NOT NULL',
      ],
    ]);
  });

  it('detaches a declared table that is a partition in the cluster, first, and plans the rest against the table it becomes', () => {
    const keyed = (t: Table): Table => ({
      ...t,
      primaryKey: { name: 'p_pkey', columns: ['d'] },
      indexes: [{ name: 'p_x_idx', columns: ['x'], unique: false, using: 'btree' }],
    });
    const r = diff(
      model([keyed(parent([])), table('p1', COLS, { primaryKey: { columns: ['d'] } })]),
      model([keyed(parent(['p1']))]),
      { prune: true },
    );
    expect(r.problems).toEqual([]);
    expect(r.steps.filter((s) => s.kind === 'create_table')).toEqual([]);
    // Its key is the one PostgreSQL cloned (p1_pkey); the cloned index goes with prune.
    expect(r.steps.flatMap((s) => renderSql(s))).toEqual([
      'ALTER TABLE app.p DETACH PARTITION app.p1',
      'DROP INDEX app.p1_x_idx',
    ]);
  });

  it('keeps a partition the manifest no longer has at all unless prune', () => {
    const r = diff(model([parent([])]), model([parent(['p1'])]));
    expect(r.steps).toEqual([]);
    expect(r.unmanaged).toEqual(['partition app.p1']);
    const pruned = diff(model([parent([])]), model([parent(['p1'])]), { prune: true });
    expect(pruned.steps.flatMap((s) => renderSql(s))).toEqual(['DROP TABLE app.p1']);
  });
});
