// Layouts on pairs of models (desired, actual → steps and problems), with the clock given: time
// partitions, declared partitions, access methods, citus-local tables and distributed schemas.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Distribution, Partition, Table } from '../../src/model/types.js';
import {
  addInterval,
  boundText,
  canonicalBound,
  canonicalPartitionKey,
  normalizeBoundValue,
  parseBound,
} from '../../src/sql/partition-bound.js';
import { diff } from '../../src/plan/diff/diff.js';
import { accessMethodProblems } from '../../src/plan/checks/server-code-problems.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';

// The plan's order reads the SQL of what it creates (plan/steps/step-names.ts).
beforeAll(loadParser);

const NOW = new Date('2026-11-24T19:30:00Z');

function table(name: string, more: Partial<Table> = {}, schema = 'public'): Table {
  return {
    id: `${schema}.${name}`,
    qname: { schema, name },
    columns: [
      { name: 'tenant_id', type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: true },
      {
        name: 'ts',
        type: { base: 'timestamp with time zone', sql: 'timestamp with time zone', serial: false },
        notNull: true,
      },
    ],
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution: { kind: 'local' },
    ...more,
  };
}

function model(tables: Table[], more: Partial<ClusterModel> = {}): ClusterModel {
  return {
    schemas: ['public', 'tenant'],
    objects: {},
    tables: Object.fromEntries(tables.map((t) => [t.id, t])),
    groups: {},
    sequences: {},
    routines: {},
    ...more,
  };
}

const day = (d: string, accessMethod?: string): Partition => ({
  name: `e_p${d.replace(/-/g, '_')}`,
  bound: boundText({
    kind: 'range',
    from: [`${d} 00:00:00+00`],
    to: [
      `${addInterval(new Date(`${d}T00:00:00Z`), '1 day', 1)
        .toISOString()
        .slice(0, 10)} 00:00:00+00`,
    ],
  }),
  ...(accessMethod ? { accessMethod } : {}),
});

const lines = (d: ClusterModel, a: ClusterModel, prune = false) => {
  const r = diff(d, a, { now: NOW, prune });
  return {
    steps: r.steps.map((s) => `${s.kind}: ${renderSql(s).join('; ')}`),
    problems: r.problems.map((p) => `${p.code} ${p.object}: ${p.message}`),
    unmanaged: r.unmanaged,
  };
};

describe('partition bounds', () => {
  it('read what PostgreSQL prints and write one canonical text', () => {
    expect(canonicalBound("FOR VALUES FROM ('2024-01-01 00:00:00+00') TO ('2024-02-01 00:00:00+00')")).toBe(
      "FOR VALUES FROM ('2024-01-01 00:00:00+00') TO ('2024-02-01 00:00:00+00')",
    );
    expect(canonicalBound('FOR VALUES FROM (1, MINVALUE) TO (10, MAXVALUE)')).toBe(
      "FOR VALUES FROM ('1', MINVALUE) TO ('10', MAXVALUE)",
    );
    expect(parseBound("FOR VALUES IN ('it''s', 'b')")).toEqual({ kind: 'list', in: ["it's", 'b'] });
    expect(parseBound('FOR VALUES WITH (modulus 4, remainder 3)')).toEqual({ kind: 'hash', modulus: 4, remainder: 3 });
    expect(parseBound('DEFAULT')).toEqual({ kind: 'default' });
    expect(parseBound('FOR VALUES FROM (x')).toBeUndefined();
    expect(canonicalPartitionKey('range (ts)')).toBe('RANGE (ts)');
    expect(canonicalPartitionKey('LIST ("Region")')).toBe('LIST ("Region")');
  });

  it('write manifest values of time keys as PostgreSQL prints them under TimeZone UTC', () => {
    const tz = 'timestamp with time zone';
    expect(normalizeBoundValue('2024-01-01', tz)).toBe('2024-01-01 00:00:00+00');
    expect(normalizeBoundValue('2024-01-01 06:30', tz)).toBe('2024-01-01 06:30:00+00');
    expect(normalizeBoundValue('2024-01-01 00:00:00+02', tz)).toBe('2023-12-31 22:00:00+00');
    expect(normalizeBoundValue('2024-01-01', 'timestamp without time zone')).toBe('2024-01-01 00:00:00');
    expect(normalizeBoundValue('2024-01-01 00:00:00', 'date')).toBe('2024-01-01');
    expect(normalizeBoundValue('MAXVALUE', tz)).toBe('MAXVALUE');
    expect(normalizeBoundValue('2024-01-01', 'text')).toBe('2024-01-01');
  });

  it('add intervals by calendar in UTC', () => {
    const d = new Date('2026-01-31T00:00:00Z');
    expect(addInterval(d, '1 day', 7).toISOString()).toBe('2026-02-07T00:00:00.000Z');
    expect(addInterval(d, '6 hours', 1).toISOString()).toBe('2026-01-31T06:00:00.000Z');
    expect(addInterval(d, '1 week', -1).toISOString()).toBe('2026-01-24T00:00:00.000Z');
    expect(addInterval(d, '1 year', 1).toISOString()).toBe('2027-01-31T00:00:00.000Z');
  });
});

describe('time partitions', () => {
  const tp = { interval: '1 day', premake: 3, retention: '5 days', columnarAfter: '2 days' };
  const desired = model([table('e', { partitionBy: 'RANGE (ts)', partitions: [], timePartitions: tp })]);

  it('a new table: created partitioned, then partitions until now + premake intervals', () => {
    expect(lines(desired, model([], { columnar: true })).steps).toEqual([
      expect.stringMatching(/^create_table: CREATE TABLE public\.e \([\s\S]*\) PARTITION BY RANGE \(ts\)$/),
      "create_time_partitions: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.create_time_partitions(table_name := 'public.e'::pg_catalog.regclass, partition_interval := '1 day'::pg_catalog.interval, end_at := '2026-11-27 19:30:00+00'::pg_catalog.timestamptz); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
  });

  it('partitions covering the time ahead: nothing to create; older than retention: dropped; older than columnar_after: made columnar after COMMIT', () => {
    const parts = ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'].map((d) =>
      day(d),
    );
    for (let i = 23; i <= 27; i++) parts.push(day(`2026-11-${i}`));
    const r = lines(desired, model([table('e', { partitionBy: 'RANGE (ts)', partitions: parts })], { columnar: true }));
    expect(r.steps).toEqual([
      "drop_old_time_partitions: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; CALL pg_catalog.drop_old_time_partitions('public.e'::pg_catalog.regclass, older_than := '2026-11-19 19:30:00+00'::pg_catalog.timestamptz); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
      "set_old_partitions_access_method: SET search_path TO pg_catalog, pg_temp; SET check_function_bodies TO off; CALL pg_catalog.alter_old_partitions_set_access_method('public.e'::pg_catalog.regclass, '2026-11-22 19:30:00+00'::pg_catalog.timestamptz, 'columnar'::pg_catalog.name); SET check_function_bodies TO on; SET search_path TO pg_catalog, public",
    ]);
    const plan = diff(
      desired,
      model([table('e', { partitionBy: 'RANGE (ts)', partitions: parts })], { columnar: true }),
      {
        now: NOW,
      },
    );
    const drop = plan.steps[0] as unknown as { partitions: string[] };
    expect(drop.partitions).toEqual(['public.e_p2026_11_17', 'public.e_p2026_11_18']);
    const columnar = plan.steps[1] as unknown as { partitions: string[] };
    expect(columnar.partitions).toEqual(['public.e_p2026_11_19', 'public.e_p2026_11_20', 'public.e_p2026_11_21']);
    expect(r.unmanaged).toEqual([]);
  });

  it('the text plan titles the after-COMMIT steps once', async () => {
    const parts = ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'].map((d) => day(d));
    for (let i = 23; i <= 27; i++) parts.push(day(`2026-11-${i}`));
    const { buildPlan } = await import('../../src/plan/plan.js');
    const { formatPlan } = await import('../../src/format/index.js');
    const plan = buildPlan({
      desired,
      actual: model([table('e', { partitionBy: 'RANGE (ts)', partitions: parts })], { columnar: true }),
      source: { kind: 'offline', description: 'test' },
      manifest: { file: 'm.yaml', sha256: 'x' },
      warnings: [],
      now: NOW,
    });
    expect(plan.afterCommit).toHaveLength(1);
    const text = formatPlan(plan, 'text');
    expect(text.match(/After COMMIT/g)).toHaveLength(1); // was twice: the section and its phase title
    expect(text).toContain('  After COMMIT, outside the transaction:\n    1. ');
  });

  it('the last partition ends before now + premake: more are created; columnar ones are not converted again', () => {
    const parts = [day('2026-11-21', 'columnar'), day('2026-11-22', 'columnar'), day('2026-11-24')];
    const r = lines(desired, model([table('e', { partitionBy: 'RANGE (ts)', partitions: parts })], { columnar: true }));
    expect(r.steps).toEqual([
      "create_time_partitions: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.create_time_partitions(table_name := 'public.e'::pg_catalog.regclass, partition_interval := '1 day'::pg_catalog.interval, end_at := '2026-11-27 19:30:00+00'::pg_catalog.timestamptz); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
  });
});

describe('declared partitions', () => {
  const p1 = day('2024-01-01');
  const p2 = day('2024-01-02');
  const want = (parts: Partition[]) => model([table('e', { partitionBy: 'RANGE (ts)', partitions: parts })]);

  it('missing ones are created; undeclared ones are unmanaged, or dropped with prune', () => {
    const r = lines(want([p1, p2]), want([p1, day('2024-01-03')]));
    expect(r.steps).toEqual([
      "create_partition: CREATE TABLE public.e_p2024_01_02 PARTITION OF public.e FOR VALUES FROM ('2024-01-02 00:00:00+00') TO ('2024-01-03 00:00:00+00')",
    ]);
    expect(r.unmanaged).toContain('partition public.e_p2024_01_03');
    expect(lines(want([p1, p2]), want([p1, day('2024-01-03')]), true).steps).toContain(
      'drop_partition: DROP TABLE public.e_p2024_01_03',
    );
  });

  it('a changed bound is a problem, never a drop; a changed access method is a rewrite', () => {
    const moved = { ...p2, name: p1.name };
    expect(lines(want([moved]), want([p1])).problems).toEqual([
      expect.stringMatching(/^partition_bound_changed public\.e_p2024_01_01: is FOR VALUES FROM .* not planned/),
    ]);
    expect(lines(want([{ ...p1, accessMethod: 'columnar' }]), { ...want([p1]), columnar: true }).steps).toEqual([
      "set_access_method: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.alter_table_set_access_method('public.e_p2024_01_01'::pg_catalog.regclass, 'columnar'::pg_catalog.text); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
  });

  it('partitioning a plain table is a problem (PostgreSQL cannot do it in place)', () => {
    expect(lines(want([]), model([table('e')])).problems).toEqual([
      expect.stringMatching(
        /^partitioning_changed public\.e: is not partitioned in the cluster and partitioned by RANGE/,
      ),
    ]);
  });
});

describe('access method', () => {
  it('heap to columnar: the extension if missing, then a rewrite; refused with foreign keys', () => {
    const d = model([table('m', { accessMethod: 'columnar' })]);
    expect(lines(d, model([table('m')])).steps).toEqual([
      "create_columnar_extension: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SET LOCAL citus.propagate_set_commands TO 'none'; CREATE EXTENSION IF NOT EXISTS citus_columnar; SET LOCAL citus.propagate_set_commands TO 'local'; SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
      "set_access_method: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.alter_table_set_access_method('public.m'::pg_catalog.regclass, 'columnar'::pg_catalog.text); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
    expect(lines(d, model([table('m')], { columnar: true })).steps).toHaveLength(1);
    const withFk = table('m', {
      foreignKeys: [{ columns: ['tenant_id'], refTable: 'public.r', refColumns: ['id'] }],
    });
    expect(lines(d, model([withFk], { columnar: true })).problems).toEqual([
      expect.stringMatching(/^access_method_with_foreign_keys public\.m: .* alter_table_set_access_method refuses it/),
    ]);
  });
});

describe('an access method of CREATE ACCESS METHOD', () => {
  it("a local table: PostgreSQL's ALTER TABLE … SET ACCESS METHOD, either way, foreign keys or not", () => {
    const withFk = (am?: string) =>
      table('m', {
        ...(am ? { accessMethod: am } : {}),
        foreignKeys: [{ columns: ['tenant_id'], refTable: 'public.r', refColumns: ['id'] }],
      });
    expect(lines(model([withFk('heap2'), table('r')]), model([withFk(), table('r')])).steps).toEqual([
      'alter_table_access_method: ALTER TABLE public.m SET ACCESS METHOD heap2',
    ]);
    expect(lines(model([withFk(), table('r')]), model([withFk('heap2'), table('r')])).steps).toEqual([
      'alter_table_access_method: ALTER TABLE public.m SET ACCESS METHOD heap',
    ]);
    expect(lines(model([withFk(), table('r')]), model([withFk('heap2'), table('r')])).problems).toEqual([]);
  });

  it('a Citus table that uses one is a plan problem: Citus does not propagate it', () => {
    const d = model([table('m', { accessMethod: 'heap2', distribution: { kind: 'reference' } })]);
    expect(accessMethodProblems(d).map((p) => `${p.code} ${p.object}`)).toEqual(['citus_access_method table public.m']);
    expect(accessMethodProblems(model([table('m', { accessMethod: 'heap2' })]))).toEqual([]);
    expect(
      accessMethodProblems(model([table('m', { accessMethod: 'columnar', distribution: { kind: 'reference' } })])),
    ).toEqual([]);
  });
});

describe('citus-local tables and distributed schemas', () => {
  const citusLocal = (more: Partial<Extract<Distribution, { kind: 'citus_local' }>> = {}): Distribution => ({
    kind: 'citus_local',
    ...more,
  });

  it('citus_local: added to the metadata; one Citus converted itself is made permanent, or left alone when declared local', () => {
    expect(
      lines(model([table('s', { distribution: citusLocal({ cascade: true }) })]), model([table('s')])).steps,
    ).toEqual([
      "add_local_table_to_metadata: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.citus_add_local_table_to_metadata('public.s'::pg_catalog.regclass, cascade_via_foreign_keys => true::pg_catalog.bool); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
    const auto = model([table('s', { distribution: citusLocal({ auto: true }) })]);
    expect(lines(model([table('s', { distribution: citusLocal() })]), auto).steps).toHaveLength(1);
    expect(lines(model([table('s')]), auto).steps).toEqual([]);
    expect(lines(model([table('s')]), model([table('s', { distribution: citusLocal() })])).steps).toEqual([
      "undistribute_table: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.undistribute_table('public.s'::pg_catalog.regclass); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
    const keyed = table('s', {
      distribution: citusLocal(),
      foreignKeys: [{ columns: ['tenant_id'], refTable: 'public.r', refColumns: ['id'] }],
    });
    const r = lines(model([table('s')]), model([keyed]));
    expect(r.steps).toEqual([]);
    expect(r.problems).toEqual([
      expect.stringMatching(/^citus_local_with_foreign_keys public\.s: .*never|cascade_via_foreign_keys/),
    ]);
  });

  it('a schema distributed with its tables; its tables get no steps of their own; one holding a distributed table is a problem', () => {
    const notes = table('notes', { distribution: { kind: 'schema' } }, 'tenant');
    const d = model([notes], { distributedSchemas: ['tenant'] });
    expect(lines(d, model([table('notes', {}, 'tenant')])).steps).toEqual([
      "distribute_schema: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.citus_schema_distribute('tenant'::pg_catalog.regnamespace); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
      "truncate_local_data: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.truncate_local_data_after_distributing_table('tenant.notes'::pg_catalog.regclass); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
    const dist = table('notes', { distribution: { kind: 'hash', column: 'tenant_id', group: 'g' } }, 'tenant');
    expect(lines(d, model([dist])).problems).toEqual([
      expect.stringMatching(
        /^schema_has_citus_tables schema tenant: cannot be distributed while it holds hash table tenant\.notes/,
      ),
    ]);
    const actual = model([notes], { distributedSchemas: ['tenant'] });
    expect(lines(d, actual).steps).toEqual([]);
    const plain = model([table('notes', {}, 'tenant')], { plainSchemas: ['tenant'] });
    expect(lines(plain, actual).steps).toEqual([
      "undistribute_schema: SET LOCAL search_path TO pg_catalog, pg_temp; SET LOCAL check_function_bodies TO off; SELECT pg_catalog.citus_schema_undistribute('tenant'::pg_catalog.regnamespace); SET LOCAL check_function_bodies TO on; SET LOCAL search_path TO pg_catalog, public",
    ]);
    expect(lines(model([table('notes', {}, 'tenant')]), actual).problems).toEqual([
      expect.stringMatching(/^distributed_schema_undeclared schema tenant: is a distributed schema in the cluster/),
    ]);
  });
});
