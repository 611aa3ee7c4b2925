// A column's type changed online (plan/retype.ts): which columns may be, the steps in and after
// the transaction, and what an interrupted change left, found in the cluster.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Column, SqlObject, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { retypeNames } from '../../src/plan/retype.js';
import { pendingRetypes } from '../../src/plan/retype-pending.js';
import { syncName } from '../../src/plan/fill.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';

const col = (name: string, type = 'integer', more: Partial<Column> = {}): Column => ({
  name,
  type: { base: type, sql: type, serial: false },
  notNull: false,
  ...more,
});
function table(columns: Column[], more: Partial<Table> = {}): Table {
  return {
    id: 'public.t',
    qname: { schema: 'public', name: 't' },
    columns,
    primaryKey: { columns: ['w'] },
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution: { kind: 'hash', column: 'w', group: 'g' },
    ...more,
  };
}
const model = (tables: Table[], objects: SqlObject[] = []): ClusterModel => ({
  schemas: ['public'],
  objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: {},
});
const planned = (desired: ClusterModel, actual: ClusterModel, online = true): string[] =>
  diff(desired, actual, online ? { online: { table: () => true } } : {}).steps.map(
    (s) => `${s.runAfterCommit ? 'after ' : ''}${s.kind}: ${renderSql(s).join('; ')}`,
  );
const kinds = (lines: string[]): string[] => lines.map((l) => l.slice(0, l.indexOf(':')));
const W = col('w', 'bigint', { notNull: true });
const SYNC = syncName({ schema: 'public', name: 't' }, 'q');

beforeAll(loadParser);

describe('a column type changed online', () => {
  it('the shadow, its trigger and the marker in the transaction; fill, validate, the index built, the swap after COMMIT', () => {
    const ix = { columns: ['q'], unique: false, using: 'btree' };
    const lines = planned(
      model([table([W, col('q', 'bigint', { notNull: true, default: '0' })], { indexes: [ix] })]),
      model([table([W, col('q', 'integer', { default: '0' })], { indexes: [{ ...ix, name: 't_q_idx' }] })]),
    );
    expect(kinds(lines)).toEqual([
      'start_retype',
      'after backfill_column',
      'after validate_constraint',
      'after create_index',
      'after finish_retype',
    ]);
    expect(lines[0]).toContain('ALTER TABLE public.t ADD COLUMN citus_migrate_new_q bigint');
    expect(lines[0]).toContain(`NEW.citus_migrate_new_q := NEW.q;`);
    expect(lines[0]).toContain(`SET search_path TO 'pg_catalog, pg_temp'`);
    expect(lines[0]).toContain(
      `CREATE TRIGGER ${SYNC} BEFORE INSERT OR UPDATE ON public.t FOR EACH ROW EXECUTE FUNCTION public.${SYNC}()`,
    );
    expect(lines[0]).toContain(
      'ADD CONSTRAINT citus_migrate_retype_q CHECK (citus_migrate_new_q IS NOT NULL) NOT VALID',
    );
    expect(lines[1]).toContain('UPDATE public.%1$s SET q = q WHERE ctid');
    expect(lines[1]).toContain('AND citus_migrate_new_q IS NULL');
    expect(lines[3]).toBe(
      'after create_index: SET citus.max_adaptive_executor_pool_size TO 1; CREATE INDEX CONCURRENTLY citus_migrate_new_t_q_idx ON public.t USING btree (citus_migrate_new_q); RESET citus.max_adaptive_executor_pool_size',
    );
    expect(lines[4]).toBe(
      `after finish_retype: SET LOCAL citus.enable_unsafe_triggers TO on; DROP TRIGGER IF EXISTS ${SYNC} ON public.t; SET LOCAL citus.enable_unsafe_triggers TO off; DROP FUNCTION IF EXISTS public.${SYNC}(); ALTER TABLE public.t DROP COLUMN q; ALTER TABLE public.t RENAME COLUMN citus_migrate_new_q TO q; ALTER TABLE public.t ALTER COLUMN q SET DEFAULT 0; ALTER TABLE public.t ALTER COLUMN q SET NOT NULL; ALTER TABLE public.t DROP CONSTRAINT citus_migrate_retype_q; ALTER INDEX public.citus_migrate_new_t_q_idx RENAME TO t_q_idx`,
    );
    // Not online: the rewrite in the transaction, as before.
    expect(kinds(planned(model([table([W, col('q', 'bigint')])]), model([table([W, col('q')])]), false))).toEqual([
      'alter_column_type',
    ]);
  });

  it('a key over the column: its unique index built on the shadow, added USING INDEX at the swap, NOT NULL proved by the marker', () => {
    const key = { primaryKey: { columns: ['w', 'q'] }, unique: [{ columns: ['q', 'w'], deferrable: true }] };
    const lines = planned(
      model([table([W, col('q', 'bigint')], key)]),
      model([
        table([W, col('q', 'integer', { notNull: true })], {
          ...key,
          primaryKey: { name: 't_pkey', columns: ['w', 'q'] },
        }),
      ]),
    );
    expect(lines[0]).toContain('CHECK (citus_migrate_new_q IS NOT NULL) NOT VALID');
    expect(lines.filter((l) => l.startsWith('after create_index'))).toEqual([
      'after create_index: SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY citus_migrate_new_t_pkey ON public.t USING btree (w, citus_migrate_new_q); RESET citus.max_adaptive_executor_pool_size',
      'after create_index: SET citus.max_adaptive_executor_pool_size TO 1; CREATE UNIQUE INDEX CONCURRENTLY citus_migrate_new_t_q_w_key ON public.t USING btree (citus_migrate_new_q, w); RESET citus.max_adaptive_executor_pool_size',
    ]);
    const swap = lines.at(-1)!;
    expect(swap).toContain(
      'ALTER TABLE public.t ALTER COLUMN q SET NOT NULL; ALTER TABLE public.t DROP CONSTRAINT citus_migrate_retype_q; ALTER TABLE public.t ADD CONSTRAINT t_pkey PRIMARY KEY USING INDEX citus_migrate_new_t_pkey; ALTER TABLE public.t ADD CONSTRAINT t_q_w_key UNIQUE USING INDEX citus_migrate_new_t_q_w_key DEFERRABLE',
    );
  });

  it('USING: the trigger computes it from the row; a nullable column is filled wherever the new value is not NULL', () => {
    const lines = planned(
      model([table([W, col('q', 'integer', { using: 'q::integer' })])]),
      model([table([W, col('q', 'text')])]),
    );
    expect(lines[0]).toContain('#variable_conflict use_column');
    expect(lines[0]).toContain('SELECT (q::integer) INTO NEW.citus_migrate_new_q FROM (SELECT NEW.*) AS r;');
    expect(lines[0]).toContain(`SET search_path TO 'pg_catalog, public'`);
    expect(lines[0]).toContain('CHECK (citus_migrate_new_q IS NOT NULL OR (q::integer) IS NULL) NOT VALID');
  });

  it('where the fill or the swap cannot keep the table as ALTER … TYPE would, the plan says why and rewrites it in the transaction', () => {
    const trigger: SqlObject = {
      id: 'trigger public.t.touch',
      kind: 'trigger',
      name: 'public.t.touch',
      parent: 'relation public.t',
      create: ['CREATE TRIGGER touch BEFORE UPDATE ON public.t FOR EACH ROW EXECUTE FUNCTION public.touch()'],
      provides: [],
      deps: [],
    };
    const view: SqlObject = {
      id: 'view public.v',
      kind: 'view',
      name: 'public.v',
      create: ['CREATE VIEW public.v AS SELECT q FROM public.t'],
      provides: ['relation public.v'],
      deps: ['relation public.t', 'column public.t.q'],
    };
    const cases: [string, Table, SqlObject[]][] = [
      [
        'it is in a foreign key',
        table([W, col('q')], { foreignKeys: [{ columns: ['w', 'q'], refTable: 'public.t', refColumns: ['w', 'z'] }] }),
        [],
      ],
      [
        'it is a reference table (the fill is made for plain and hash-distributed tables)',
        table([W, col('q')], { distribution: { kind: 'reference' } }),
        [],
      ],
      ['it has trigger public.t.touch (the fill is an UPDATE of every row)', table([W, col('q')]), [trigger]],
      ['view public.v uses it', table([W, col('q')]), [view]],
      ['its default draws from a sequence', table([W, col('q', 'integer', { default: "nextval('s'::regclass)" })]), []],
    ];
    for (const [why, t, objects] of cases) {
      const desired = {
        ...t,
        columns: [W, { ...t.columns![1]!, type: { base: 'bigint', sql: 'bigint', serial: false } }],
      };
      const r = diff(model([desired], objects), model([t], objects), { online: { table: () => true } });
      const step = r.steps.find((s) => s.kind === 'alter_column_type');
      expect(step && 'notOnline' in step ? step.notOnline : undefined, why).toBe(why);
    }
  });

  it('what an interrupted change left is found by its marker and shadow, hidden from the diff, and gone on with or dropped', () => {
    const { shadow, marker } = retypeNames('q');
    const markerObject = (validated: boolean): SqlObject => ({
      id: `check constraint public.t.${marker}`,
      kind: 'check constraint',
      name: `public.t.${marker}`,
      parent: 'relation public.t',
      create: [
        `ALTER TABLE public.t ADD CONSTRAINT ${marker} CHECK ((${shadow} IS NOT NULL))${validated ? '' : ' NOT VALID'}`,
      ],
      provides: [],
      deps: [],
    });
    const trigger: SqlObject = {
      id: `trigger public.t.${SYNC}`,
      kind: 'trigger',
      name: `public.t.${SYNC}`,
      parent: 'relation public.t',
      create: [
        `CREATE TRIGGER ${SYNC} BEFORE INSERT OR UPDATE ON public.t FOR EACH ROW EXECUTE FUNCTION public.${SYNC}()`,
      ],
      provides: [],
      deps: [],
    };
    const left = (validated: boolean): ClusterModel => ({
      ...model([table([W, col('q'), col(shadow, 'bigint')])], [markerObject(validated), trigger]),
      routines: {
        [`public.${SYNC}()`]: { id: `public.${SYNC}()`, qname: { schema: 'public', name: SYNC }, argTypes: [] },
      },
    });
    const found = pendingRetypes(left(false));
    expect(found.pending).toEqual([
      {
        table: { schema: 'public', name: 't' },
        column: 'q',
        shadow,
        type: 'bigint',
        marker,
        validated: false,
        indexes: [],
      },
    ]);
    expect(Object.keys(found.actual.objects)).toEqual([]);
    expect(found.actual.routines).toEqual({});
    expect(found.actual.tables['public.t']!.columns!.map((c) => c.name)).toEqual(['w', 'q']);
    const want = (type: string) => model([table([W, col('q', type, { notNull: true })])]);
    // Same type: go on (no start); validated: only the swap.
    expect(kinds(planned(want('bigint'), left(false)))).toEqual([
      'after backfill_column',
      'after validate_constraint',
      'after finish_retype',
    ]);
    expect(kinds(planned(want('bigint'), left(true)))).toEqual(['after finish_retype']);
    // Another type: dropped, then begun again; the old type, or not online: dropped.
    expect(kinds(planned(want('numeric'), left(false))).slice(0, 2)).toEqual(['abort_retype', 'start_retype']);
    expect(kinds(planned(want('integer'), left(false)))).toEqual(['abort_retype', 'alter_column_not_null']);
    expect(kinds(planned(want('bigint'), left(false), false))).toEqual([
      'abort_retype',
      'alter_column_type',
      'alter_column_not_null',
    ]);
    expect(planned(want('integer'), left(false))[0]).toBe(
      `abort_retype: SET LOCAL citus.enable_unsafe_triggers TO on; DROP TRIGGER IF EXISTS ${SYNC} ON public.t; SET LOCAL citus.enable_unsafe_triggers TO off; DROP FUNCTION IF EXISTS public.${SYNC}(); ALTER TABLE public.t DROP COLUMN IF EXISTS ${shadow}`,
    );
  });
});
