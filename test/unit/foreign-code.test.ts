// Steps that would run code of another role (not a superuser) with the applier's rights carry
// `runs_foreign_code` and name the object, the routine and its owner (checks/foreign-code.ts): what a
// copy or rewrite of a table's rows evaluates, the triggers it fires, a new column's default and
// domain, a type change's USING, and an event trigger on every step.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Column, Owner, Routine, SqlObject, Table } from '../../src/model/types.js';
import { markForeignCode } from '../../src/plan/checks/foreign-code.js';
import { hazardsOf, summarize } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { markUnsafeTriggers } from '../../src/plan/checks/unsafe-triggers.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

const low: Owner = { name: 'low', superuser: false };
const t = { schema: 'app', name: 't' };
const int = { base: 'integer', sql: 'integer', serial: false };

const routine = (id: string, owner?: Owner): Routine => ({
  id,
  qname: { schema: id.split('.')[0]!, name: id.slice(id.indexOf('.') + 1, id.indexOf('(')) },
  kind: 'function',
  argTypes: [],
  ...(owner ? { owner } : {}),
});
const table = (id: string, extra: Partial<Table> = {}): Table => ({
  id,
  qname: { schema: 'app', name: id.slice(4) },
  columns: [{ name: 'x', type: int, notNull: false }],
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
  ...extra,
});
const onT = (id: string, kind: SqlObject['kind'], create: string[], deps: string[]): SqlObject => ({
  id,
  kind,
  name: id.slice(kind.length + 1),
  parent: 'relation app.t',
  create,
  provides: [],
  deps: ['relation app.t', ...deps],
});
function model(over: Partial<ClusterModel> & { objs?: SqlObject[]; fns?: Routine[] } = {}): ClusterModel {
  const { objs = [], fns = [], ...rest } = over;
  return {
    schemas: ['public', 'app'],
    groups: {},
    sequences: {},
    routines: Object.fromEntries(fns.map((r) => [r.id, r])),
    tables: { 'app.t': table('app.t') },
    objects: Object.fromEntries(objs.map((o) => [o.id, o])),
    ...rest,
  };
}
const check = onT(
  'check constraint app.t.c',
  'check constraint',
  ['ALTER TABLE app.t ADD CONSTRAINT c CHECK ((app.f(x) > 0))'],
  ['routine app.f'],
);
const distribute: Step = {
  kind: 'distribute_table',
  table: t,
  column: 'x',
  group: 'g',
  colocateWith: 'none',
  shardCount: 32,
  copiesData: true,
};
const shown = (steps: readonly Step[]) => steps.map((s) => [summarize(s), [...hazardsOf(s)]]);

describe('copies and rewrites of a table', () => {
  it('distributing a table with rows evaluates its CHECKs and domains in the copy', () => {
    const domain: SqlObject = {
      id: 'domain app.d',
      kind: 'domain',
      name: 'app.d',
      create: ['CREATE DOMAIN app.d AS integer CONSTRAINT d_check CHECK ((app.g(VALUE) > 0))'],
      provides: ['type app.d'],
      deps: ['routine app.g'],
    };
    const actual = model({
      objs: [check, domain],
      fns: [routine('app.f()', low), routine('app.g()', low)],
      typeUsers: { 'type app.d': ['relation app.t'] },
    });
    expect(shown(markForeignCode([distribute], actual, actual))).toEqual([
      [
        'distribute app.t by x: anchor of colocation group "g", 32 shards; copies its rows into the shards; ' +
          "runs low's code: check constraint app.t.c calls app.f(); runs low's code: domain app.d (a column type of app.t) calls app.g()",
        ['copies_data', 'runs_foreign_code'],
      ],
    ]);
  });

  it.each([
    ['the applier', undefined],
    ['another superuser', { name: 'dba', superuser: true }],
  ])('code owned by %s is no hazard', (_who, owner) => {
    const actual = model({ objs: [check], fns: [routine('app.f()', owner)] });
    expect(shown(markForeignCode([distribute], actual, actual))[0]![1]).toEqual(['copies_data']);
  });

  it('an empty table distributed copies nothing: no hazard', () => {
    const actual = model({ objs: [check], fns: [routine('app.f()', low)] });
    expect(shown(markForeignCode([{ ...distribute, copiesData: false }], actual, actual))[0]![1]).toEqual([]);
  });

  it('the copy fires no trigger it pauses; removing the local rows fires TRUNCATE triggers', () => {
    const ins = onT(
      'trigger app.t.ins',
      'trigger',
      ['CREATE TRIGGER ins BEFORE INSERT ON app.t FOR EACH ROW EXECUTE FUNCTION app.f()'],
      ['routine app.f'],
    );
    const tr = onT(
      'trigger app.t.tr',
      'trigger',
      ['CREATE TRIGGER tr BEFORE TRUNCATE ON app.t FOR EACH STATEMENT EXECUTE FUNCTION app.f()'],
      ['routine app.f'],
    );
    const off = onT(
      'trigger app.t.off',
      'trigger',
      [
        'CREATE TRIGGER off BEFORE TRUNCATE ON app.t FOR EACH STATEMENT EXECUTE FUNCTION app.f()',
        'ALTER TABLE app.t DISABLE TRIGGER off',
      ],
      ['routine app.f'],
    );
    const actual = model({ objs: [ins, tr, off], fns: [routine('app.f()', low)] });
    const steps = markForeignCode(
      markUnsafeTriggers([distribute, { kind: 'truncate_local_data', table: t }], actual),
      actual,
      actual,
    );
    // The copy pauses every enabled trigger of the table (checks/paused-triggers.ts).
    expect(steps[0]!.pausedTriggers).toBeDefined();
    expect(shown(steps)).toEqual([
      [expect.stringMatching(/copies its rows into the shards$/), ['copies_data']],
      [
        "remove the coordinator's local copy of app.t's rows (they are in the shards now); runs low's code: trigger tr on app.t calls app.f()",
        ['runs_foreign_code'],
      ],
    ]);
  });

  it('alter_distributed_table with cascade re-checks the rows of every table of the group', () => {
    const hash = { kind: 'hash' as const, column: 'x', group: 'g' };
    const uCheck = { ...check, id: 'check constraint app.u.c', name: 'app.u.c', parent: 'relation app.u' };
    const actual = model({
      objs: [uCheck],
      fns: [routine('app.f()', low)],
      tables: { 'app.t': table('app.t', { distribution: hash }), 'app.u': table('app.u', { distribution: hash }) },
    });
    const step: Step = { kind: 'alter_distributed_table', table: t, shardCount: 8, cascade: true, group: 'g' };
    expect(shown(markForeignCode([step], actual, actual))[0]).toEqual([
      'rewrite app.t with 8 shards (group "g", with every table colocated with it); runs low\'s code: check constraint app.u.c calls app.f()',
      ['rewrites_table', 'runs_foreign_code'],
    ]);
  });
});

describe('columns', () => {
  it('a new column whose default calls another role’s function (qualified or not) runs it for every row', () => {
    const actual = model({ fns: [routine('app.f()', low)] });
    const add = (d: string): Step => ({
      kind: 'add_column',
      table: t,
      column: { name: 'y', type: int, notNull: false, default: d } as Column,
    });
    expect(shown(markForeignCode([add('app.f()'), add('f() + 1'), add('now()')], actual, actual))).toEqual([
      [
        "add column y integer DEFAULT app.f() to app.t; runs low's code: the default of app.t.y calls app.f()",
        ['runs_foreign_code'],
      ],
      [
        "add column y integer DEFAULT f() + 1 to app.t; runs low's code: the default of app.t.y calls app.f()",
        ['runs_foreign_code'],
      ],
      ['add column y integer DEFAULT now() to app.t', []],
    ]);
  });

  it('a type change runs its USING and its new domain’s CHECKs', () => {
    const domain: SqlObject = {
      id: 'domain app.d',
      kind: 'domain',
      name: 'app.d',
      create: ['CREATE DOMAIN app.d AS integer CONSTRAINT c CHECK ((app.g(VALUE) > 0))'],
      provides: ['type app.d'],
      deps: ['routine app.g'],
    };
    const actual = model({ objs: [domain], fns: [routine('app.f()', low), routine('app.g()', low)] });
    const step: Step = {
      kind: 'alter_column_type',
      table: t,
      column: 'x',
      type: 'app.d',
      from: 'text',
      using: 'app.f(x)',
    };
    expect(summarize(markForeignCode([step], actual, actual)[0]!)).toBe(
      "change app.t.x from text to app.d (USING app.f(x)): values of x may be rounded, truncated or refused; runs low's code: the USING of app.t.x calls app.f(); runs low's code: domain app.d (the new type of app.t.x) calls app.g()",
    );
  });
});

describe('event triggers', () => {
  it('an enabled event trigger of another role fires on every DDL step: each carries it', () => {
    const actual = model({ eventTriggers: [{ name: 'audit', routine: 'app.ev()', owner: low }] });
    const steps: Step[] = [
      { kind: 'create_schema', schema: 'x' },
      { kind: 'drop_table', table: t },
    ];
    expect(shown(markForeignCode(steps, actual, actual))).toEqual([
      [
        "create schema x; runs low's code: event trigger audit calls app.ev() on every DDL statement",
        ['runs_foreign_code'],
      ],
      [
        expect.stringMatching(/; runs low's code: event trigger audit calls app.ev\(\) on every DDL statement$/),
        ['drops_data', 'runs_foreign_code'],
      ],
    ]);
  });
});
