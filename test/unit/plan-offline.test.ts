// Offline plans: exact SQL for the shipped layouts, phase order, and each output format.
import { describe, expect, it } from 'vitest';
import { dataRefsOf } from '../../src/bench/data-bounds.js';
import { hammerdbPlan } from '../../src/commands/hammerdb.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { formatPlan } from '../../src/format/index.js';
import { hammerdbManifest } from '../../src/hammerdb/layout.js';
import { loadManifest, loadManifestText } from '../../src/manifest/load.js';
import { diff } from '../../src/plan/diff/diff.js';
import { PHASES } from '../../src/plan/steps/steps.js';
import { readFileSync } from 'node:fs';
import { load } from '../support/manifest.js';
import { cli } from '../support/run-cli.js';

describe('hammerdb', () => {
  it.each(['procedures', 'functions'] as const)('writes the %s variant as one transaction', async (variant) => {
    const plan = await hammerdbPlan({ variant, shardCount: 32 });
    await expect(formatPlan(plan, 'sql')).toMatchFileSnapshot(`./__snapshots__/hammerdb-${variant}.sql`);
  });

  it('ships the procedures layout as templates/hammerdb/citus-migrate.yaml', () => {
    expect(readFileSync('templates/hammerdb/citus-migrate.yaml', 'utf8')).toBe(
      hammerdbManifest({ variant: 'procedures', shardCount: 32 }),
    );
  });

  it('honours --shard-count and colocates every table with the warehouse anchor', async () => {
    const plan = await hammerdbPlan({ variant: 'procedures', shardCount: 8 });
    const sql = plan.transaction.steps.flatMap((s) => s.sql);
    expect(sql).toContain(
      "SELECT pg_catalog.create_distributed_table('public.warehouse'::pg_catalog.regclass, 'w_id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 8::pg_catalog.int4)",
    );
    expect(sql.filter((s) => s.includes("colocate_with => 'public.warehouse'::pg_catalog.text)"))).toHaveLength(7);
    expect(sql).toContain("SELECT pg_catalog.create_reference_table('public.item'::pg_catalog.regclass)");
    expect(plan.hazards).toEqual(['copies_data']);
  });
});

describe('plan order and content', () => {
  it("alters a new serial column's sequence only when it declares something CREATE TABLE does not give it", async () => {
    const manifest = (cache: number): string =>
      `version: 1\ntables:\n  t: { distributed_by: w, columns: { id: bigserial, w: { type: integer, not_null: true } } }\nsequences:\n  t_id_seq: { cache: ${cache} }\n`;
    const sql = async (cache: number): Promise<string[]> =>
      planOffline(await load(manifest(cache)), 'm').transaction.steps.flatMap((s) => s.sql);
    expect((await sql(1)).filter((s) => s.startsWith('ALTER SEQUENCE'))).toEqual([]);
    expect((await sql(100)).filter((s) => s.startsWith('ALTER SEQUENCE'))).toEqual([
      'ALTER SEQUENCE public.t_id_seq CACHE 100',
    ]);
    expect((await sql(1)).find((s) => s.startsWith('CREATE TABLE'))).toContain('id bigserial NOT NULL');
  });

  it('orders steps by phase: sequences before tables, caches before distribution, FKs after both sides', async () => {
    const m = await loadManifest('templates/saas/citus-migrate.yaml');
    const plan = planOffline(m, 'saas');
    const phases = plan.transaction.steps.map((s) => PHASES.indexOf(s.phase));
    expect(phases).toEqual([...phases].sort((a, b) => a - b));
    const kinds = plan.transaction.steps.map((s) => s.kind);
    const firstDistribute = kinds.indexOf('distribute_table');
    expect(kinds.lastIndexOf('alter_sequence')).toBeLessThan(firstDistribute);
    expect(kinds.indexOf('add_foreign_key')).toBeGreaterThan(kinds.lastIndexOf('distribute_table'));
    await expect(formatPlan(plan, 'sql')).toMatchFileSnapshot('./__snapshots__/saas.sql');
  });

  it('passes every argument explicitly to Citus (a NULL argument is a silent no-op)', async () => {
    const m = await load(
      [
        'version: 1',
        'colocation: { g: { shard_count: 4 } }',
        'tables:',
        '  a: { distributed_by: id, colocation: g, columns: { id: bigint } }',
        '  e: { single_shard: true, columns: { id: bigint } }',
        'routines:',
        '  f: { signature: "f(bigint)", distributed_by: $1, colocation: g }',
        '  h: { signature: "h()" }',
        '  byname: {}',
      ].join('\n'),
    );
    // Each Citus call between its search_path pins (step-spec.ts's renderSql).
    const sql = planOffline(m)
      .transaction.steps.flatMap((s) => s.sql)
      .filter((x) => !/^SET LOCAL (search_path|check_function_bodies)/.test(x));
    expect(sql).toEqual([
      'CREATE TABLE public.a (\n    id bigint\n)',
      'CREATE TABLE public.e (\n    id bigint\n)',
      "SELECT pg_catalog.create_distributed_table('public.e'::pg_catalog.regclass, NULL::pg_catalog.text, colocate_with => 'none'::pg_catalog.text)",
      "SELECT pg_catalog.create_distributed_table('public.a'::pg_catalog.regclass, 'id'::pg_catalog.text, colocate_with => 'none'::pg_catalog.text, shard_count => 4::pg_catalog.int4)",
      "SELECT pg_catalog.create_distributed_function('public.f(bigint)'::pg_catalog.regprocedure, '$1'::pg_catalog.text, colocate_with => 'public.a'::pg_catalog.text, force_delegation => false::pg_catalog.bool)",
      "SELECT pg_catalog.create_distributed_function('public.h()'::pg_catalog.regprocedure)",
      "SELECT pg_catalog.create_distributed_function('public.byname'::pg_catalog.regproc::pg_catalog.oid::pg_catalog.regprocedure)",
    ]);
  });

  it('pins search_path for a routine file that names no schema', async () => {
    const m = await load(['version: 1', 'defaults: { schema: app }', 'routines:', '  f: { file: f.sql }'].join('\n'), {
      'f.sql': 'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;\n-- trailing',
    });
    const step = planOffline(m).transaction.steps.find((s) => s.kind === 'create_routine')!;
    expect(step.sql).toEqual([
      'SET LOCAL search_path TO app',
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$',
      'SET LOCAL search_path TO pg_catalog, public',
    ]);
  });

  it('plans nothing for an empty manifest', async () => {
    const plan = planOffline(await load('version: 1\n'));
    expect(plan.changes).toBe(false);
    expect(formatPlan(plan, 'sql')).toContain('-- No changes: the cluster matches the manifest.');
  });
});

describe('formats', () => {
  it('json is a versioned plan document', async () => {
    const plan = await hammerdbPlan({ variant: 'functions', shardCount: 4 });
    const doc = JSON.parse(formatPlan(plan, 'json'));
    expect(doc).toMatchObject({
      format: 'citus-migrate.plan',
      formatVersion: 1,
      changes: true,
      hazards: ['copies_data'],
      source: { kind: 'offline' },
    });
    expect(doc.transaction.preamble[0]).toBe("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'");
    expect(doc.transaction.steps[0]).toMatchObject({
      index: 1,
      kind: 'create_reference_table',
      phase: 'reference_tables',
      hazards: ['copies_data'],
    });
  });

  it('text shows one line per step with its hazards', async () => {
    const text = formatPlan(await hammerdbPlan({ variant: 'procedures', shardCount: 32 }), 'text');
    expect(text).toContain('24 steps in one transaction; hazards: copies_data (9)');
    expect(text).toContain(
      '     2. distribute public.warehouse by w_id: anchor of colocation group "warehouse", 32 shards; copies its rows into the shards  [copies_data]',
    );
  });

  it('markdown is a table plus the SQL in a details block, with pipes escaped', async () => {
    const m = await load(['version: 1', 'tables:', '  "a|b": { reference: true, columns: { id: int } }'].join('\n'));
    const md = formatPlan(planOffline(m, 'm.yaml'), 'markdown');
    expect(md).toContain('| 2 | reference_tables | make public."a\\|b" a reference table |  |');
    expect(md).toContain('<details><summary>SQL</summary>');
  });
});

describe('hammerdb --manifest', () => {
  it('writes YAML through the yaml library, so any --schema reads back', async () => {
    const r = await cli(['hammerdb', '--manifest', '--schema', 'a: b', '--warehouses', '2']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const m = await loadManifestText(r.stdout, 'hammerdb.yaml', process.cwd());
    expect(m.desired.schemas).toEqual(['a: b']);
    expect(new Set(Object.values(m.desired.tables).map((t) => t.qname.schema))).toEqual(new Set(['a: b']));
    expect(m.bench!.workloads.map((w) => w.params[0])).toEqual(Array(5).fill({ int: [1, 2] }));
  });

  it('sizes the bench from the data unless --warehouses is given', async () => {
    const r = await cli(['hammerdb', '--manifest', '--schema', 'tpcc']);
    expect(r.stdout).toContain(
      '      params: [ { int: [ 1, { max: warehouse.w_id } ] }, { const: { max: warehouse.w_id } }, { int: [ 1, 10 ] }, { nurand: [ 1023, 1, 3000 ] }, { int: [ 5, 15 ] } ]\n',
    );
    const m = await loadManifestText(r.stdout, 'hammerdb.yaml', process.cwd());
    expect(dataRefsOf(m.bench!.workloads).map((ref) => [ref.text, ref.table])).toEqual([
      ['max(warehouse.w_id)', { schema: 'tpcc', name: 'warehouse' }],
    ]);
    expect((await cli(['hammerdb', '--manifest', '--warehouses', '0'])).code).toBe(64);
  });
});

describe('problems', () => {
  it('name their object once: a long routine signature is not repeated in the message', async () => {
    const m = await load(
      'version: 1\nroutines:\n  payment: { signature: "payment(integer, integer, numeric, integer, integer)" }\n',
    );
    const { problems } = diff(m.desired, {
      schemas: ['public'],
      tables: {},
      groups: {},
      sequences: {},
      routines: {},
      objects: {},
    });
    expect(problems).toEqual([
      {
        code: 'missing_routine',
        object: 'public.payment(integer, integer, numeric, integer, integer)',
        message: 'is declared without a file (created elsewhere) but does not exist',
      },
    ]);
  });
});
