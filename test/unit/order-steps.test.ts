// The plan's order from what each step needs (plan/order/order-steps.ts, plan/steps/step-names.ts): offline
// plans of manifests whose objects reference each other against their phase order, with the
// exact step order; overloads declared by signature; introspect writing both.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/introspect/to-model.js';
import { liveToManifest } from '../../src/introspect/to-manifest.js';
import type { ClusterModel, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { orderSteps } from '../../src/plan/order/order-steps.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { load, problems } from '../support/manifest.js';

beforeAll(loadParser);

const summaries = async (yaml: string, files: Record<string, string>): Promise<string[]> =>
  planOffline(await load(yaml, files)).transaction.steps.map((s) => s.summary);

describe('creation order from references', () => {
  it("a table whose default draws from another table's serial sequence comes after that table", async () => {
    const yaml = [
      'version: 1',
      'tables:',
      '  a_note:',
      '    local: true',
      '    columns: { id: { type: int, not_null: true, default: "nextval(\'b_note_id_seq\'::regclass)" } }',
      '  b_note:',
      '    local: true',
      '    columns: { id: { type: serial, not_null: true } }',
      '',
    ].join('\n');
    expect(await summaries(yaml, {})).toEqual([
      'create table public.b_note (1 column)',
      'create table public.a_note (1 column)',
    ]);
  });

  it('a domain whose CHECK calls a function, and the table of that domain, come after the function', async () => {
    const yaml = [
      'version: 1',
      'tables:',
      '  item:',
      '    local: true',
      '    columns: { c: { type: code } }',
      'routines:',
      '  valid_code: { file: valid_code.sql, local: true }',
      'sql: [types.sql]',
      '',
    ].join('\n');
    const files = {
      'valid_code.sql': "CREATE FUNCTION valid_code(c text) RETURNS boolean LANGUAGE sql AS $$ SELECT c <> '' $$;\n",
      'types.sql': 'CREATE DOMAIN code AS text CHECK (valid_code(VALUE));\n',
    };
    expect(await summaries(yaml, files)).toEqual([
      'create function public.valid_code(text)',
      'create domain public.code',
      'create table public.item (1 column)',
    ]);
  });

  it('a SQL function comes after the function and view its body reads', async () => {
    const yaml = [
      'version: 1',
      'tables:',
      '  orders:',
      '    local: true',
      '    columns: { id: { type: int, not_null: true }, total: { type: numeric } }',
      'routines:',
      '  a_count: { file: a_count.sql, local: true }',
      '  b_big: { file: b_big.sql, local: true }',
      'sql: [views.sql]',
      '',
    ].join('\n');
    const files = {
      'a_count.sql':
        'CREATE FUNCTION a_count() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM big_orders WHERE b_big(total) $$;\n',
      'b_big.sql': 'CREATE FUNCTION b_big(t numeric) RETURNS boolean LANGUAGE sql AS $$ SELECT t > 100 $$;\n',
      'views.sql': 'CREATE VIEW big_orders AS SELECT id, total FROM orders;\n',
    };
    expect(await summaries(yaml, files)).toEqual([
      'create table public.orders (2 columns)',
      'create function public.b_big(numeric)',
      'create view public.big_orders',
      'create function public.a_count()',
    ]);
  });

  it('a cycle through a SQL body: the routine is created first with check_function_bodies off, and the plan says so', async () => {
    const yaml = [
      'version: 1',
      'tables:',
      '  ticket:',
      '    local: true',
      '    columns: { n: { type: int, not_null: true, default: "next_ticket()" } }',
      'routines:',
      '  next_ticket: { file: next_ticket.sql, local: true }',
      '',
    ].join('\n');
    const files = {
      'next_ticket.sql':
        'CREATE FUNCTION next_ticket() RETURNS int LANGUAGE sql AS $$ SELECT coalesce(max(n), 0) + 1 FROM ticket $$;\n',
    };
    const plan = planOffline(await load(yaml, files));
    expect(plan.transaction.steps.map((s) => s.summary)).toEqual([
      'create function public.next_ticket() (body not checked at CREATE: it reads what is created after it)',
      'create table public.ticket (1 column)',
    ]);
    // local: true keeps it on the coordinator (metadata sync off around it, steps/render-routines.ts).
    expect(plan.transaction.steps[0]!.sql).toEqual([
      'SET LOCAL search_path TO public',
      'SET LOCAL citus.enable_metadata_sync TO off',
      'SET LOCAL check_function_bodies TO off',
      'CREATE FUNCTION next_ticket() RETURNS int LANGUAGE sql AS $$ SELECT coalesce(max(n), 0) + 1 FROM ticket $$',
      'SET LOCAL check_function_bodies TO on',
      'SET LOCAL citus.enable_metadata_sync TO on',
      'SET LOCAL search_path TO pg_catalog, public',
    ]);
  });

  it('an object changing kind: the drop of the old one comes before the create of the new one', () => {
    const t = { schema: 'public', name: 'summary' };
    const steps: Step[] = [
      {
        kind: 'create_object',
        object: 'view public.summary',
        objectKind: 'view',
        statements: ['CREATE VIEW summary AS SELECT 1 AS x'],
        recreate: false,
      },
      { kind: 'drop_table', table: t },
    ];
    const desired: ClusterModel = { schemas: [], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} };
    expect(orderSteps(steps, desired).map((s) => s.kind)).toEqual(['drop_table', 'create_object']);
    expect(orderSteps([...steps].reverse(), desired).map((s) => s.kind)).toEqual(['drop_table', 'create_object']);
  });
});

describe('an object changing kind without prune', () => {
  it('a view declared under the name of a table the plan does not drop is a plan problem', () => {
    const table: Table = {
      id: 'public.summary',
      qname: { schema: 'public', name: 'summary' },
      columns: [{ name: 'x', type: { base: 'integer', sql: 'integer', serial: false }, notNull: false }],
      unique: [],
      indexes: [],
      foreignKeys: [],
      distribution: { kind: 'local' },
    };
    const empty: ClusterModel = {
      schemas: ['public'],
      tables: {},
      groups: {},
      sequences: {},
      routines: {},
      objects: {},
    };
    const view = {
      id: 'view public.summary',
      kind: 'view' as const,
      name: 'public.summary',
      create: ['CREATE VIEW summary AS SELECT 1 AS x'],
      provides: ['relation public.summary'],
      deps: [],
      searchPath: 'public',
    };
    const desired: ClusterModel = { ...empty, objects: { [view.id]: view } };
    const actual: ClusterModel = { ...empty, tables: { [table.id]: table } };
    expect(diff(desired, actual, { citus: false }).problems).toEqual([
      {
        code: 'name_taken',
        object: 'view public.summary',
        message:
          'cannot be created: table public.summary has its name and this plan does not drop it (an object changing kind): drop it first, or plan with prune',
      },
    ]);
    expect(diff(desired, actual, { citus: false, prune: true }).problems).toEqual([]);
  });
});

describe('overloaded routines declared by signature', () => {
  const files = {
    'area1.sql': 'CREATE FUNCTION area(r numeric) RETURNS numeric LANGUAGE sql AS $$ SELECT r * r $$;\n',
    'area2.sql': 'CREATE FUNCTION area(w numeric, h numeric) RETURNS numeric LANGUAGE sql AS $$ SELECT w * h $$;\n',
  };

  it('two keys name(types) of one name are two routines, created by signature', async () => {
    const yaml = [
      'version: 1',
      'routines:',
      '  area(numeric): { file: area1.sql, local: true }',
      '  area(numeric, numeric): { file: area2.sql, local: true }',
      '',
    ].join('\n');
    expect(await summaries(yaml, files)).toEqual([
      'create function public.area(numeric)',
      'create function public.area(numeric, numeric)',
    ]);
  });

  it('a key whose signature differs from its file is a problem', async () => {
    const yaml = ['version: 1', 'routines:', '  area(integer): { file: area1.sql, local: true }', ''].join('\n');
    expect((await problems(yaml, files)).join('\n')).toContain(
      'the key names public.area(integer), but the file creates public.area(numeric)',
    );
  });

  it('introspect keys overloads by signature, and a routine of its own name by name', () => {
    const r = (args: string[]) => ({
      id: `public.area(${args.join(', ')})`,
      qname: { schema: 'public', name: 'area' },
      kind: 'function' as const,
      argTypes: args,
    });
    const model: ClusterModel = {
      schemas: ['public'],
      tables: {},
      groups: {},
      sequences: {},
      routines: {
        'public.area(numeric)': r(['numeric']),
        'public.area(numeric, numeric)': r(['numeric', 'numeric']),
        'public.one(integer)': {
          ...r(['integer']),
          id: 'public.one(integer)',
          qname: { schema: 'public', name: 'one' },
        },
      },
      objects: {},
    };
    const live = {
      model,
      citus: false,
      fingerprint: '',
      objects: {},
      doc: { server: { database: 'd', version: '16.0', versionNum: 160000, citus: null } },
    } as unknown as LiveState;
    const text = liveToManifest(live);
    expect(text).toContain('  area(numeric):\n    signature: area(numeric)\n    local: true\n');
    expect(text).toContain('  area(numeric, numeric):\n    signature: area(numeric, numeric)\n    local: true\n');
    expect(text).toContain('  one:\n    signature: one(integer)\n');
    expect(text).not.toContain('ignore');
  });
});

describe('introspect: sequences', () => {
  it('a sequence owned by a column that is not serial (a domain over integer) is declared, not left out', () => {
    const t: Table = {
      id: 'public.s',
      qname: { schema: 'public', name: 's' },
      columns: [
        {
          name: 'id',
          type: { base: 'uint', sql: 'uint', serial: false },
          notNull: true,
          default: "nextval('s_id_seq'::regclass)",
        },
      ],
      unique: [],
      indexes: [],
      foreignKeys: [],
      distribution: { kind: 'local' },
    };
    const model: ClusterModel = {
      schemas: ['public'],
      tables: { 'public.s': t },
      groups: {},
      routines: {},
      objects: {},
      sequences: {
        'public.s_id_seq': {
          id: 'public.s_id_seq',
          qname: { schema: 'public', name: 's_id_seq' },
          type: 'bigint',
          cache: '1',
          cycle: false,
          ownedBy: { table: 'public.s', column: 'id' },
        },
      },
    };
    const live = {
      model,
      citus: false,
      fingerprint: '',
      objects: {},
      doc: { server: { database: 'd', version: '16.0', versionNum: 160000, citus: null } },
    } as unknown as LiveState;
    expect(liveToManifest(live)).toContain('sequences:\n  s_id_seq:\n    type: bigint\n    cache: 1\n');
  });
});
