// Online changes on pairs of models: which steps become concurrent, which follow them after
// COMMIT, and what the server must allow.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Distribution, SqlObject, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { foreignKeyName } from '../../src/plan/online.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';

const col = (name: string) => ({ name, type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: true });

function table(name: string, distribution: Distribution, more: Partial<Table> = {}): Table {
  return {
    id: `public.${name}`,
    qname: { schema: 'public', name },
    columns: [col('w'), col('id')],
    primaryKey: { columns: ['w', 'id'] },
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution,
    ...more,
  };
}

function model(tables: Table[], groups: ClusterModel['groups'] = {}, objects: SqlObject[] = []): ClusterModel {
  return {
    schemas: ['public'],
    objects: Object.fromEntries(objects.map((o) => [o.id, o])),
    tables: Object.fromEntries(tables.map((t) => [t.id, t])),
    groups,
    sequences: {},
    routines: {},
  };
}

/** A CHECK as an SQL file declares it (desired) or the catalog shows it (actual). */
const check = (sql: string, actual = false): SqlObject => ({
  id: 'check constraint public.a.a_id_positive',
  kind: 'check constraint',
  name: 'public.a.a_id_positive',
  parent: 'relation public.a',
  create: [sql],
  provides: [],
  deps: [],
  ...(actual ? { drop: ['ALTER TABLE public.a DROP CONSTRAINT a_id_positive'] } : { searchPath: 'public' }),
});

beforeAll(loadParser);

const local: Distribution = { kind: 'local' };
const hash: Distribution = { kind: 'hash', column: 'w', group: 'g' };
const group = { g: { name: 'g', shardCount: 4, anchor: 'public.a', members: ['public.a', 'public.b'] } };

/** "[after] kind: sql" lines, in plan order (after-commit ones last as buildPlan splits them). */
function planned(
  desired: ClusterModel,
  actual: ClusterModel,
  walLevel = 'logical',
  outputPlugins: string | null = null,
) {
  const r = diff(desired, actual, { online: { table: () => true, walLevel, outputPlugins } });
  const later = (s: (typeof r.steps)[number]) =>
    s.runAfterCommit === true || /CONCURRENTLY|_concurrently/.test(renderSql(s).join(' '));
  return {
    inTx: r.steps.filter((s) => !later(s)).map((s) => `${s.kind}: ${renderSql(s).join('; ')}`),
    after: r.steps.filter(later).map((s) => `${s.kind}: ${renderSql(s).join('; ')}`),
    problems: r.problems.map((p) => `${p.code}: ${p.message}`),
  };
}

describe('online changes', () => {
  it('tables holding rows are distributed concurrently after COMMIT; their member and foreign key follow them; nothing is truncated', () => {
    const fk = { columns: ['w', 'id'], refTable: 'public.a', refColumns: ['w', 'id'] };
    const desired = model([table('a', hash), table('b', hash, { foreignKeys: [fk] })], group);
    const p = planned(desired, model([table('a', local), table('b', local)]));
    expect(p.inTx).toEqual([]);
    expect(p.after).toEqual([
      "distribute_table_concurrently: SET search_path TO pg_catalog, pg_temp; SET check_function_bodies TO off; SET citus.shard_replication_factor TO 1; SELECT pg_catalog.create_distributed_table_concurrently('public.a'::pg_catalog.regclass, 'w'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 4::pg_catalog.int4); SET check_function_bodies TO on; SET search_path TO pg_catalog, public",
      "distribute_table_concurrently: SET search_path TO pg_catalog, pg_temp; SET check_function_bodies TO off; SET citus.shard_replication_factor TO 1; SELECT pg_catalog.create_distributed_table_concurrently('public.b'::pg_catalog.regclass, 'w'::pg_catalog.text, colocate_with => 'public.a'::pg_catalog.text); SET check_function_bodies TO on; SET search_path TO pg_catalog, public",
      'add_foreign_key: ALTER TABLE public.b ADD CONSTRAINT b_w_id_fkey FOREIGN KEY (w, id) REFERENCES public.a (w, id) NOT VALID',
      'validate_constraint: ALTER TABLE public.b VALIDATE CONSTRAINT b_w_id_fkey',
    ]);
    expect(p.problems).toEqual([]);
  });

  it('a new table (no rows) is distributed in the transaction as usual', () => {
    const p = planned(model([table('a', hash), table('b', hash)], group), model([]));
    expect(p.after).toEqual([]);
    expect(p.inTx.filter((l) => l.startsWith('distribute_table:'))).toHaveLength(2);
  });

  it('indexes of tables holding rows are built concurrently; an invalid one a failed build left is dropped concurrently and built again', () => {
    const ix = { name: 'a_id', columns: ['id'], unique: false, using: 'btree' };
    const p = planned(
      model([table('a', hash, { indexes: [ix] })]),
      model([table('a', hash, { indexes: [{ ...ix, invalid: true }] })]),
    );
    expect(p.after).toEqual([
      'drop_index: DROP INDEX CONCURRENTLY IF EXISTS public.a_id',
      'create_index: SET citus.max_adaptive_executor_pool_size TO 1; CREATE INDEX CONCURRENTLY a_id ON public.a USING btree (id); RESET citus.max_adaptive_executor_pool_size',
    ]);
  });

  it('a foreign key left NOT VALID by an interrupted apply is validated', () => {
    const fk = { name: 'b_fk', columns: ['w', 'id'], refTable: 'public.a', refColumns: ['w', 'id'] };
    const p = planned(
      model([table('a', hash), table('b', hash, { foreignKeys: [fk] })], group),
      model([table('a', hash), table('b', hash, { foreignKeys: [{ ...fk, notValid: true }] })], {
        'colocation:1': { name: 'colocation:1', shardCount: 4, anchor: 'public.a', members: ['public.a', 'public.b'] },
      }),
    );
    expect(p.after).toEqual(['validate_constraint: ALTER TABLE public.b VALIDATE CONSTRAINT b_fk']);
  });

  it('a CHECK declared in SQL on a table holding rows is added NOT VALID in the transaction and validated after COMMIT', () => {
    const p = planned(
      model([table('a', hash)], {}, [check('ALTER TABLE a ADD CONSTRAINT a_id_positive CHECK (id > 0);')]),
      model([table('a', hash)]),
    );
    expect(p.inTx).toEqual([
      'create_object: SET LOCAL search_path TO public; ALTER TABLE a ADD CONSTRAINT a_id_positive CHECK (id > 0) NOT VALID; SET LOCAL search_path TO pg_catalog, public',
    ]);
    expect(p.after).toEqual(['validate_constraint: ALTER TABLE public.a VALIDATE CONSTRAINT a_id_positive']);
  });

  it('a CHECK left NOT VALID is validated (after COMMIT online, in the transaction otherwise), not dropped and added again', () => {
    const desired = model([table('a', hash)], {}, [check('ALTER TABLE a ADD CONSTRAINT a_id_positive CHECK (id > 0)')]);
    const actual = model([table('a', hash)], {}, [
      check('ALTER TABLE public.a ADD CONSTRAINT a_id_positive CHECK ((id > 0)) NOT VALID', true),
    ]);
    expect(planned(desired, actual).after).toEqual([
      'validate_constraint: ALTER TABLE public.a VALIDATE CONSTRAINT a_id_positive',
    ]);
    const offline = diff(desired, actual).steps.map(
      (s) => `${s.runAfterCommit ? 'after ' : ''}${renderSql(s).join('; ')}`,
    );
    expect(offline).toEqual(['ALTER TABLE public.a VALIDATE CONSTRAINT a_id_positive']);
    // A different expression is still a change: dropped and added again.
    const changed = model([table('a', hash)], {}, [
      check('ALTER TABLE public.a ADD CONSTRAINT a_id_positive CHECK ((id > 1)) NOT VALID', true),
    ]);
    expect(diff(desired, changed).steps.map((s) => s.kind)).toEqual(['drop_object', 'create_object']);
  });

  it('without logical decoding allowed for citus, online distribution is a problem that says what to set', () => {
    const p = planned(
      model([table('a', hash)], { g: { ...group.g, members: ['public.a'] } }),
      model([table('a', local)]),
      'replica',
      'pgoutput, test_decoding',
    );
    expect(p.problems).toEqual([
      expect.stringMatching(
        /^online_needs_logical_decoding: cannot be distributed online: create_distributed_table_concurrently needs wal_level = logical \(it is replica\) and output_plugin_libraries to include citus/,
      ),
    ]);
  });

  it("foreign key names are PostgreSQL's default, cut to 63 bytes", () => {
    expect(foreignKeyName('orders', { columns: ['w', 'id'], refTable: 'x', refColumns: [] })).toBe('orders_w_id_fkey');
    expect(
      Buffer.byteLength(foreignKeyName('ä'.repeat(40), { columns: ['c'], refTable: 'x', refColumns: [] })),
    ).toBeLessThanOrEqual(63);
  });
});
