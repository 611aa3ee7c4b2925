// With prune, the keys and foreign keys a declared table has and the manifest does not declare
// are dropped: foreign keys before the keys they reference, all before DROP NOT NULL and DROP
// COLUMN; a key a kept foreign key references is a problem, never a refused DROP or a CASCADE.
import { describe, expect, it } from 'vitest';
import type { ClusterModel, ForeignKey, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { ignoreMatcher } from '../../src/plan/ignore.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { localTable, modelOf, type TableSpec } from '../support/model.js';

interface Spec extends Omit<TableSpec, 'notNull'> {
  readonly nullable?: readonly string[];
}

const table = (name: string, spec: Spec = {}): Table =>
  localTable(name, { ...spec, notNull: (c) => !(spec.nullable ?? []).includes(c) });
const model = modelOf;

const fk = (name: string, columns: string[], ref: string, refColumns: string[]): ForeignKey => ({
  name,
  columns,
  refTable: `public.${ref}`,
  refColumns,
});

const PARENT = table('parent', {
  pk: { name: 'parent_pkey', columns: ['id'] },
  unique: [{ name: 'parent_a_key', columns: ['a'] }],
});
const CHILD = table('child', { fks: [fk('child_a_fkey', ['a'], 'parent', ['id'])] });

function planOf(desired: ClusterModel, actual: ClusterModel, opts: { prune?: boolean; ignore?: string[] } = {}) {
  const r = diff(desired, actual, {
    prune: opts.prune ?? true,
    now: new Date('2026-01-01T00:00:00Z'),
    ...(opts.ignore ? { ignore: ignoreMatcher(opts.ignore) } : {}),
  });
  return {
    sql: r.steps.flatMap((s) => renderSql(s)),
    problems: r.problems.map((p) => `${p.code} ${p.object}`),
    unmanaged: r.unmanaged,
  };
}

describe('prune of undeclared keys and foreign keys', () => {
  it('without prune, names them and plans nothing (as before)', () => {
    const r = planOf(model(table('parent'), table('child')), model(PARENT, CHILD), { prune: false });
    expect(r.sql).toEqual([]);
    expect(r.unmanaged).toEqual([
      'primary key on public.parent (id)',
      'unique constraint on public.parent (a)',
      'foreign key child_a_fkey on public.child (a) -> public.parent (id)',
    ]);
  });

  it('with prune, drops the foreign key before the key it references, and names nothing', () => {
    const r = planOf(model(table('parent'), table('child')), model(PARENT, CHILD));
    expect(r.sql).toEqual([
      'ALTER TABLE public.child DROP CONSTRAINT child_a_fkey',
      'ALTER TABLE public.parent DROP CONSTRAINT parent_pkey',
      'ALTER TABLE public.parent DROP CONSTRAINT parent_a_key',
    ]);
    expect(r.problems).toEqual([]);
    expect(r.unmanaged).toEqual([]);
  });

  it('without prune, DROP NOT NULL of a column of the primary key the cluster keeps is a problem', () => {
    const desired = model(table('parent', { nullable: ['id'], unique: [{ columns: ['a'] }] }));
    const r = planOf(desired, model(PARENT), { prune: false });
    expect(r.problems).toEqual(['nullable_key_column table public.parent']);
    expect(r.unmanaged).toEqual(['primary key on public.parent (id)']);
  });

  it('drops a key before DROP NOT NULL of its column and before DROP COLUMN of another', () => {
    const desired = model(table('parent', { columns: ['id', 'b'], nullable: ['id'] }));
    const r = planOf(desired, model(PARENT));
    expect(r.sql).toEqual([
      'ALTER TABLE public.parent DROP CONSTRAINT parent_pkey',
      'ALTER TABLE public.parent DROP CONSTRAINT parent_a_key',
      'ALTER TABLE public.parent ALTER COLUMN id DROP NOT NULL',
      'ALTER TABLE public.parent DROP COLUMN a',
    ]);
    expect(r.problems).toEqual([]);
  });

  it('a table prune drops loses its foreign key to a pruned key first', () => {
    const r = planOf(model(table('parent', { unique: [{ columns: ['a'] }] })), model(PARENT, CHILD));
    expect(r.sql).toEqual([
      'ALTER TABLE public.child DROP CONSTRAINT child_a_fkey',
      'ALTER TABLE public.parent DROP CONSTRAINT parent_pkey',
      'DROP TABLE public.child',
    ]);
    expect(r.problems).toEqual([]);
  });

  it('a table prune drops loses its foreign key to a key the plan replaces first (no dependent_foreign_key)', () => {
    const desired = model(table('parent', { pk: { columns: ['a'] }, unique: [{ columns: ['a'] }] }));
    const actual = model(table('parent', { pk: { name: 'parent_pkey', columns: ['id'] } }), CHILD);
    const r = planOf(desired, actual);
    expect(r.sql).toEqual([
      'ALTER TABLE public.child DROP CONSTRAINT child_a_fkey',
      'ALTER TABLE public.parent DROP CONSTRAINT parent_pkey',
      'ALTER TABLE public.parent ADD PRIMARY KEY (a)',
      'ALTER TABLE public.parent ADD UNIQUE (a)',
      'DROP TABLE public.child',
    ]);
    expect(r.problems).toEqual([]);
  });

  it('a declared foreign key on a pruned key is dropped and added again on the key the manifest declares', () => {
    const desired = model(
      table('parent', { unique: [{ columns: ['id'] }] }),
      table('child', { fks: [fk('child_a_fkey', ['a'], 'parent', ['id'])] }),
    );
    const r = planOf(desired, model(table('parent', { pk: { name: 'parent_pkey', columns: ['id'] } }), CHILD));
    expect(r.sql).toEqual([
      'ALTER TABLE public.child DROP CONSTRAINT child_a_fkey',
      'ALTER TABLE public.parent DROP CONSTRAINT parent_pkey',
      'ALTER TABLE public.parent ADD UNIQUE (id)',
      'ALTER TABLE public.child ADD CONSTRAINT child_a_fkey FOREIGN KEY (a) REFERENCES public.parent (id)',
    ]);
    expect(r.problems).toEqual([]);
  });

  it('keeps a key an ignored table references: a problem, and the key stays named', () => {
    const r = planOf(model(table('parent')), model(PARENT, CHILD), { ignore: ['table public.child'] });
    expect(r.sql).toEqual(['ALTER TABLE public.parent DROP CONSTRAINT parent_a_key']);
    expect(r.problems).toEqual(['prune_blocked table public.parent']);
    expect(r.unmanaged).toEqual(['primary key on public.parent (id)']);
  });

  it('keeps the foreign keys of a table declared without columns, and the key they reference', () => {
    const desired = model(table('parent'), table('child', { columns: null }));
    const r = planOf(desired, model(PARENT, CHILD));
    expect(r.sql).toEqual(['ALTER TABLE public.parent DROP CONSTRAINT parent_a_key']);
    expect(r.problems).toEqual(['prune_blocked table public.parent']);
    expect(r.unmanaged).toEqual(['primary key on public.parent (id)']);
  });

  it('keeps an ignored foreign key, and the key it references', () => {
    const r = planOf(model(table('parent'), table('child')), model(PARENT, CHILD), {
      ignore: ['foreign key * on public.child *'],
    });
    expect(r.sql).toEqual(['ALTER TABLE public.parent DROP CONSTRAINT parent_a_key']);
    expect(r.problems).toEqual(['prune_blocked table public.parent']);
  });

  it('an ignored key is neither dropped nor named', () => {
    const r = planOf(model(table('parent')), model(PARENT), { ignore: ['unique constraint on public.parent *'] });
    expect(r.sql).toEqual(['ALTER TABLE public.parent DROP CONSTRAINT parent_pkey']);
    expect(r.unmanaged).toEqual([]);
  });

  it('a kept table whose undeclared foreign key references a pruned table: the key goes, then the table', () => {
    const desired = model(table('child'));
    const r = planOf(desired, model(table('parent', { pk: { name: 'parent_pkey', columns: ['id'] } }), CHILD));
    expect(r.sql).toEqual(['ALTER TABLE public.child DROP CONSTRAINT child_a_fkey', 'DROP TABLE public.parent']);
    expect(r.problems).toEqual([]);
  });

  it('a unique constraint on the primary key columns is named without prune and dropped with it', () => {
    const desired = model(table('t', { pk: { columns: ['id'] } }));
    const actual = model(
      table('t', { pk: { name: 't_pkey', columns: ['id'] }, unique: [{ name: 't_id_key', columns: ['id'] }] }),
    );
    expect(planOf(desired, actual, { prune: false }).unmanaged).toEqual(['unique constraint on public.t (id)']);
    expect(planOf(desired, actual).sql).toEqual(['ALTER TABLE public.t DROP CONSTRAINT t_id_key']);
  });

  it('a key prune drops does not stop distributing the table by a column it leaves out', () => {
    const t = table('parent');
    const desired: ClusterModel = {
      ...model({ ...t, distribution: { kind: 'hash', column: 'a', group: 'g' } }),
      groups: { g: { name: 'g', shardCount: 4, anchor: t.id, members: [t.id] } },
    };
    const actual = model(table('parent', { pk: { name: 'parent_pkey', columns: ['id'] } }));
    expect(planOf(desired, actual, { prune: false }).problems).toEqual([
      'key_without_distribution_column table public.parent',
    ]);
    const r = planOf(desired, actual);
    expect(r.problems).toEqual([]);
    expect(r.sql[0]).toBe('ALTER TABLE public.parent DROP CONSTRAINT parent_pkey');
  });

  it('a pruned primary key that held a distribution column NOT NULL: DROP NOT NULL there is a Citus problem', () => {
    const hash = { kind: 'hash', column: 'a', group: 'g' } as const;
    const groups = { g: { name: 'g', shardCount: 4, anchor: 'public.t', members: ['public.t'] } };
    const desired: ClusterModel = { ...model({ ...table('t', { nullable: ['a'] }), distribution: hash }), groups };
    const actual: ClusterModel = {
      ...model({ ...table('t', { pk: { name: 't_pkey', columns: ['a', 'id'] } }), distribution: hash }),
      groups,
    };
    expect(planOf(desired, actual).problems).toEqual(['citus_refuses_alter column public.t.a']);
    const withDefault = model({ ...table('t'), distribution: hash });
    const t = withDefault.tables['public.t']!;
    const defaulted = { ...t, columns: t.columns!.map((c) => (c.name === 'a' ? { ...c, default: '1' } : c)) };
    expect(planOf({ ...model(defaulted), groups }, { ...withDefault, groups }).problems).toEqual([
      'citus_refuses_alter column public.t.a',
    ]);
  });
});
