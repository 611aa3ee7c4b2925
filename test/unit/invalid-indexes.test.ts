// An index a failed CREATE INDEX CONCURRENTLY left invalid is not used and its UNIQUE is not
// enforced: a plan that declares it (a manifest index, a key, an index in a sql: file) rebuilds
// it and says why, instead of "No changes". IF EXISTS: the failed build may have left Citus
// shards without it, and Citus passes IF EXISTS on to them.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import type { RelationFacts, ShardState } from '../../src/introspect/read-shards.js';
import type { ClusterModel, Index, SqlObject, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { objectSteps } from '../../src/plan/diff/objects.js';
import { checkShards } from '../../src/plan/diff/shard-check.js';
import { renderSql, summarize } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { localTable, modelOf } from '../support/model.js';

// A step's summary names what PUBLIC gets from a grant, read by the parser.
beforeAll(loadParser);

const lines = (steps: readonly Step[]): string[] => steps.map((s) => `${summarize(s)}: ${renderSql(s).join('; ')}`);
const withIndexes = (t: Table, indexes: Index[]): Table => ({ ...t, indexes });
const ix = (name: string | undefined, extra: Partial<Index> = {}): Index => ({
  ...(name !== undefined ? { name } : {}),
  columns: ['a'],
  unique: true,
  using: 'btree',
  ...extra,
});

describe('an invalid index the manifest declares', () => {
  it('is dropped (IF EXISTS) and built again, and the plan says why', () => {
    const want = modelOf(withIndexes(localTable('t'), [ix('t_a')]));
    const have = modelOf(withIndexes(localTable('t'), [ix('t_a', { invalid: true })]));
    expect(lines(diff(want, have).steps)).toEqual([
      'index public.t_a of public.t is invalid (a failed build; not used, nor enforced): drop it to build it again: DROP INDEX IF EXISTS public.t_a',
      'create unique index on public.t (a): CREATE UNIQUE INDEX t_a ON public.t USING btree (a)',
    ]);
    expect(diff(want, modelOf(withIndexes(localTable('t'), [ix('t_a')]))).steps).toEqual([]);
  });

  it('declared without a name: the invalid one is dropped too, not left beside a new one for ever', () => {
    const want = modelOf(withIndexes(localTable('t'), [ix(undefined)]));
    const have = modelOf(withIndexes(localTable('t'), [ix('t_a_idx', { invalid: true })]));
    const r = diff(want, have);
    expect(lines(r.steps)).toEqual([
      'index public.t_a_idx of public.t is invalid (a failed build; not used, nor enforced): drop it to build it again: DROP INDEX IF EXISTS public.t_a_idx',
      'create unique index on public.t (a): CREATE UNIQUE INDEX ON public.t USING btree (a)',
    ]);
    // Once built (t_a_idx1), the plan is empty, with or without prune.
    const built = modelOf(withIndexes(localTable('t'), [ix('t_a_idx1')]));
    expect(diff(want, built).steps).toEqual([]);
    expect(diff(want, built, { prune: true }).steps).toEqual([]);
  });

  it('with prune, an undeclared invalid one is dropped IF EXISTS', () => {
    const want = modelOf(withIndexes(localTable('t'), []));
    const have = modelOf(withIndexes(localTable('t'), [ix('t_a', { invalid: true })]));
    expect(lines(diff(want, have, { prune: true }).steps)).toEqual([
      'drop invalid index public.t_a of public.t (prune): DROP INDEX IF EXISTS public.t_a',
    ]);
  });

  it('with prune, an invalid index matching a declared one is dropped once', () => {
    const want = modelOf(withIndexes(localTable('t'), [ix('t_a')]));
    const have = modelOf(withIndexes(localTable('t'), [ix('t_a', { invalid: true })]));
    expect(diff(want, have, { prune: true }).steps.filter((s) => s.kind === 'drop_index')).toHaveLength(1);
  });
});

describe('a key whose index is invalid', () => {
  const t = (pkInvalid: boolean, uInvalid: boolean): Table =>
    localTable('t', {
      notNull: (c) => c === 'id',
      pk: { name: 't_pkey', columns: ['id'], ...(pkInvalid ? { invalid: true } : {}) },
      unique: [{ name: 't_a_key', columns: ['a'], ...(uInvalid ? { invalid: true } : {}) }],
    });
  const declared = localTable('t', {
    notNull: (c) => c === 'id',
    pk: { columns: ['id'] },
    unique: [{ columns: ['a'] }],
  });

  it('is dropped and added again under its name, and the plan says why', () => {
    expect(lines(diff(modelOf(declared), modelOf(t(true, true))).steps)).toEqual([
      'drop primary key t_pkey of public.t (its index is invalid, so it is not enforced: added again, which builds it): ALTER TABLE public.t DROP CONSTRAINT t_pkey',
      'drop unique constraint t_a_key of public.t (its index is invalid, so it is not enforced: added again, which builds it): ALTER TABLE public.t DROP CONSTRAINT t_a_key',
      'add primary key t_pkey (id) to public.t: ALTER TABLE public.t ADD CONSTRAINT t_pkey PRIMARY KEY (id)',
      'add unique t_a_key (a) to public.t: ALTER TABLE public.t ADD CONSTRAINT t_a_key UNIQUE (a)',
    ]);
    expect(diff(modelOf(declared), modelOf(t(false, false))).steps).toEqual([]);
  });

  it('a foreign key that references it is dropped and added again around it', () => {
    const fk = { name: 'c_t_fkey', columns: ['a'], refTable: 'public.t', refColumns: ['a'] };
    const child = localTable('c', { fks: [fk] });
    const steps = diff(modelOf(declared, child), modelOf(t(false, true), child)).steps;
    expect(steps.map((s) => renderSql(s).join('; '))).toEqual([
      'ALTER TABLE public.c DROP CONSTRAINT c_t_fkey',
      'ALTER TABLE public.t DROP CONSTRAINT t_a_key',
      'ALTER TABLE public.t ADD CONSTRAINT t_a_key UNIQUE (a)',
      'ALTER TABLE public.c ADD CONSTRAINT c_t_fkey FOREIGN KEY (a) REFERENCES public.t (a)',
    ]);
  });
});

describe('an invalid index declared in a sql: file', () => {
  const index = (extra: Partial<SqlObject> = {}): SqlObject => ({
    id: 'index public.t_a',
    kind: 'index',
    name: 'public.t_a',
    parent: 'relation public.t',
    create: ['CREATE UNIQUE INDEX t_a ON public.t USING btree (a)'],
    drop: ['DROP INDEX public.t_a'],
    provides: [],
    deps: ['relation public.t'],
    ...extra,
  });
  const ctx = {
    prune: false,
    ignore: () => false,
    changedRelations: new Set<string>(),
    recreatedRoutines: new Set<string>(),
    recorded: {},
  };
  const withObjects = (objects: SqlObject[]): ClusterModel => ({
    ...modelOf(localTable('t', { columns: null })),
    objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  });

  it('is dropped and created again (its definition prints as the declared one)', () => {
    const invalid = index({ invalid: true, drop: ['DROP INDEX IF EXISTS public.t_a'] });
    const r = objectSteps(withObjects([index()]), withObjects([invalid]), ctx);
    expect(lines(r.steps)).toEqual([
      'index public.t_a is invalid (a failed build; not used, nor enforced): drop it to create it again: DROP INDEX IF EXISTS public.t_a',
      'create again index public.t_a: CREATE UNIQUE INDEX t_a ON public.t USING btree (a)',
    ]);
    expect(objectSteps(withObjects([index()]), withObjects([index()]), ctx).steps).toEqual([]);
  });
});

describe('plan --shards and an index invalid on the coordinator', () => {
  const idx = (name: string, valid: boolean) => ({
    name,
    schema: 'app',
    valid,
    constraint: null,
    definition: `CREATE UNIQUE INDEX ${name} ON app.t USING btree (a)`,
    shape: [true, 'btree', ['a'], null],
  });
  const facts = (key: string, indexes: ReturnType<typeof idx>[]): RelationFacts => ({
    key,
    exists: true,
    columns: [['a', 'integer', false]],
    indexes,
    constraints: [],
    triggers: [],
  });
  const state = (shardIndexes: ReturnType<typeof idx>[]): ShardState => ({
    tables: { '["app","t"]': facts('["app","t"]', [idx('t_a', false)]) },
    placements: [
      {
        table: ['app', 't'],
        shardId: 102008,
        shard: 'app.t_102008',
        group: 1,
        host: 'w1',
        port: 5432,
        facts: facts('102008@1', shardIndexes),
      },
    ],
    unreachable: [],
  });

  it('leaves its shards to the plan that rebuilds it: no repair, no problem, whatever the shard holds', () => {
    for (const shard of [[], [idx('t_a_102008', false)], [idx('t_a_102008', true)]])
      expect(checkShards(state(shard))).toEqual({ steps: [], problems: [] });
  });
});
