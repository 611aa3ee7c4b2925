// Indexes of sql: files built without blocking writes: CREATE INDEX CONCURRENTLY in a file, or any
// index of a table changed online, is built concurrently after COMMIT once its table exists (in
// the transaction when the plan creates the table); an invalid one a failed build left is dropped
// concurrently and built again; a partitioned table gets no concurrent build.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, SqlObject, Table } from '../../src/model/types.js';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { createdIndex, indexConcurrently } from '../../src/objects/statement-parts.js';
import { diff } from '../../src/plan/diff/diff.js';
import { hazardsOf, renderSql } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(loadParser);

const col = (name: string) => ({ name, type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: true });
const table = (more: Partial<Table> = {}): Table => ({
  id: 'public.a',
  qname: { schema: 'public', name: 'a' },
  columns: [col('w'), col('id'), { ...col('v'), notNull: false }],
  primaryKey: { columns: ['w', 'id'] },
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
  ...more,
});
const model = (tables: Table[], objects: Record<string, SqlObject> = {}): ClusterModel => ({
  schemas: ['public'],
  objects,
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: {},
});
const fromSql = (text: string) => objectsFromSql([{ file: 'indexes.sql', text }], 'public', () => '');
/** The index as the catalog shows it (pg_get_indexdef), valid or left invalid by a failed build. */
const actualIndex = (create: string, invalid = false): Record<string, SqlObject> => ({
  'index public.a_open': {
    id: 'index public.a_open',
    kind: 'index',
    name: 'public.a_open',
    parent: 'relation public.a',
    create: [create],
    drop: ['DROP INDEX public.a_open'],
    provides: ['index public.a_open'],
    deps: ['relation public.a'],
    ...(invalid ? { invalid: true } : {}),
  },
});

function planned(desired: ClusterModel, actual: ClusterModel, online = false) {
  const r = diff(desired, actual, { online: { table: () => online } });
  const later = (s: (typeof r.steps)[number]) => hazardsOf(s).includes('non_transactional');
  return {
    inTx: r.steps.filter((s) => !later(s)).map((s) => `${s.kind}: ${renderSql(s).join('; ')}`),
    after: r.steps.filter(later).map((s) => `${s.kind}: ${renderSql(s).join('; ')}`),
    problems: r.problems.map((p) => `${p.code}: ${p.message}`),
  };
}

const PARTIAL = 'CREATE UNIQUE INDEX CONCURRENTLY a_open ON a (w, id) WHERE v IS NOT NULL;';

describe('indexes of sql: files, online', () => {
  it('CREATE INDEX CONCURRENTLY in a file is read, kept as CREATE INDEX, and marked online', () => {
    const r = fromSql(PARTIAL);
    expect(r.problems).toEqual([]);
    expect(r.objects['index public.a_open']).toMatchObject({
      create: ['CREATE UNIQUE INDEX a_open ON a (w, id) WHERE v IS NOT NULL'],
      online: true,
    });
  });

  it('is built concurrently after COMMIT on a table that exists, under the file schema', () => {
    const p = planned(model([table()], fromSql(PARTIAL).objects), model([table()]));
    expect(p.problems).toEqual([]);
    expect(p.inTx).toEqual([]);
    expect(p.after).toEqual([
      'create_object: SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY a_open ON a (w, id) WHERE v IS NOT NULL; RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
    ]);
  });

  it('is built in the transaction, without CONCURRENTLY, on a table the plan creates', () => {
    const p = planned(model([table()], fromSql(PARTIAL).objects), model([]));
    expect(p.after).toEqual([]);
    expect(p.inTx.filter((l) => l.startsWith('create_object'))).toEqual([
      'create_object: SET LOCAL search_path TO public; CREATE UNIQUE INDEX a_open ON a (w, id) WHERE v IS NOT NULL; SET LOCAL search_path TO pg_catalog, public',
    ]);
  });

  it('an expression index written plainly is built concurrently when its table changes online (online: true / --online), and not otherwise', () => {
    const sql = 'CREATE INDEX a_lower ON a (lower(v::text));';
    const desired = model([table()], fromSql(sql).objects);
    expect(planned(desired, model([table()]), true).after).toEqual([
      'create_object: SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE INDEX CONCURRENTLY a_lower ON a (lower(v::text)); RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
    ]);
    expect(planned(desired, model([table()]), false).after).toEqual([]);
  });

  it('the same index, valid, is no change; left invalid by a failed build, it is dropped and built again concurrently', () => {
    const desired = model([table()], fromSql(PARTIAL).objects);
    const def = 'CREATE UNIQUE INDEX a_open ON public.a USING btree (w, id) WHERE (v IS NOT NULL)';
    expect(planned(desired, model([table()], actualIndex(def)))).toEqual({ inTx: [], after: [], problems: [] });
    expect(planned(desired, model([table()], actualIndex(def, true))).after).toEqual([
      'drop_object: DROP INDEX CONCURRENTLY IF EXISTS public.a_open',
      'create_object: SET search_path TO public; SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY a_open ON a (w, id) WHERE v IS NOT NULL; RESET citus.max_adaptive_executor_pool_size; SET search_path TO pg_catalog, public',
    ]);
  });

  it('a partitioned table gets no concurrent build: a problem when the file says CONCURRENTLY, in the transaction when the table is online', () => {
    const parted = table({ partitionBy: 'RANGE (w)' });
    const p = planned(model([parted], fromSql(PARTIAL).objects), model([parted]));
    expect(p.problems).toEqual([expect.stringMatching(/^online_index_partitioned: public\.a is partitioned/)]);
    const manifestIndex = table({
      partitionBy: 'RANGE (w)',
      indexes: [{ name: 'a_v', columns: ['v'], using: 'btree', unique: false }],
    });
    const q = planned(model([manifestIndex]), model([parted]), true);
    expect(q.after).toEqual([]);
    expect(q.inTx).toEqual([expect.stringMatching(/^create_index: CREATE INDEX a_v ON public\.a/)]);
  });
});

describe('CONCURRENTLY in a statement text', () => {
  it('is added or removed with the rest as written, comments and all', () => {
    const text = '/* hot */ CREATE -- unique\n UNIQUE INDEX CONCURRENTLY ix ON t ((lower(a)))';
    expect(indexConcurrently(text, false)).toBe('/* hot */ CREATE -- unique\n UNIQUE INDEX ix ON t ((lower(a)))');
    expect(indexConcurrently(indexConcurrently(text, false)!, true)).toBe(text);
    expect(createdIndex(text, 'app')).toEqual({ table: { schema: 'app', name: 't' }, name: 'ix', concurrent: true });
  });

  it('is left alone where the text is not surely one CREATE INDEX', () => {
    expect(indexConcurrently('CREATE VIEW v AS SELECT 1', true)).toBeUndefined();
    expect(indexConcurrently('CREATE INDEX ix ON t (a); CREATE INDEX iy ON t (b)', true)).toBeUndefined();
    expect(createdIndex('CREATE VIEW v AS SELECT 1', 'app')).toBeUndefined();
  });
});
