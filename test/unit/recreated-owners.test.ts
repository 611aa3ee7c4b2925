// Objects and routines the plan drops and creates again keep their owner: CREATE makes the
// applier (a superuser) the owner, so the plan gives each back to the role that owned it, in the
// same step (ALTER … OWNER TO). A view owned by the applier would read its tables with the
// applier's rights for anyone allowed to query it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Owner, Routine, SqlObject } from '../../src/model/types.js';
import { objectSteps } from '../../src/plan/diff/objects.js';
import { routineDefinitionSteps } from '../../src/plan/diff/routines.js';
import { renderSql, summarize } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { catalogDoc } from '../../src/model/catalog-doc.js';
import { catalogSchema } from '../../src/model/catalog-schema.js';
import { catalogToModel } from '../../src/introspect/to-model.js';

beforeAll(async () => {
  await loadParser();
});

const low: Owner = { name: 'Low Role', superuser: false };

function model(objects: SqlObject[], routines: Routine[] = []): ClusterModel {
  return {
    schemas: ['public', 'app'],
    groups: {},
    sequences: {},
    routines: Object.fromEntries(routines.map((r) => [r.id, r])),
    tables: {},
    objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  };
}
const obj = (id: string, kind: SqlObject['kind'], create: string, extra: Partial<SqlObject> = {}): SqlObject => ({
  id,
  kind,
  name: id.slice(kind.length + 1),
  create: [create],
  drop: [`DROP ${kind.toUpperCase()} ${id.slice(kind.length + 1)}`],
  provides: [],
  deps: [],
  ...extra,
});
const ctx = {
  prune: false,
  ignore: () => false,
  changedRelations: new Set<string>(),
  recreatedRoutines: new Set<string>(),
  recorded: {},
};
const shown = (steps: readonly Step[]) => steps.map((s) => [summarize(s), renderSql(s)]);

describe('objects created again keep their owner', () => {
  it('a view over a column whose type changes goes back to its owner in the step that creates it again', () => {
    const view = (owner?: Owner) =>
      obj('view app.v', 'view', 'CREATE VIEW app.v AS SELECT x FROM app.t', {
        deps: ['relation app.t', 'column app.t.x'],
        ...(owner ? { owner } : {}),
      });
    const { steps } = objectSteps(model([view()]), model([view(low)]), {
      ...ctx,
      changedRelations: new Set(['relation app.t']),
      changedColumns: new Set(['column app.t.x']),
    });
    expect(shown(steps)).toEqual([
      ['drop view app.v (to create it again)', ['DROP VIEW app.v']],
      [
        'create again view app.v (owner Low Role kept)',
        ['CREATE VIEW app.v AS SELECT x FROM app.t', 'ALTER VIEW app.v OWNER TO "Low Role"'],
      ],
    ]);
  });

  it.each([
    [
      'materialized view',
      'materialized view app.mv',
      'CREATE MATERIALIZED VIEW app.mv AS SELECT 2',
      'MATERIALIZED VIEW app.mv',
    ],
    ['domain', 'domain app.d', 'CREATE DOMAIN app.d AS integer CHECK (VALUE > 1)', 'DOMAIN app.d'],
    ['composite type', 'composite type app.c', 'CREATE TYPE app.c AS (a bigint)', 'TYPE app.c'],
    [
      'aggregate',
      'aggregate app.s(integer)',
      'CREATE AGGREGATE app.s(integer) (SFUNC = int4pl, STYPE = integer)',
      'AGGREGATE app.s(integer)',
    ],
  ] as const)('a changed %s is given back to its owner', (kind, id, create, target) => {
    const before = obj(id, kind, `${create} -- before`, { owner: low, create: ['CREATE something else'] });
    const { steps } = objectSteps(model([obj(id, kind, create)]), model([before]), ctx);
    const again = steps.find((s) => s.kind === 'create_object')!;
    // CREATE filled a materialized view with the applier's rights: REFRESH runs its query as its owner.
    const refresh = kind === 'materialized view' ? ['REFRESH MATERIALIZED VIEW app.mv'] : [];
    expect(renderSql(again)).toEqual([create, `ALTER ${target} OWNER TO "Low Role"`, ...refresh]);
  });

  it('a materialized view declared WITH NO DATA is not refreshed', () => {
    const create = 'CREATE MATERIALIZED VIEW app.mv AS SELECT 2 WITH NO DATA';
    const before = obj('materialized view app.mv', 'materialized view', 'CREATE MATERIALIZED VIEW app.mv AS SELECT 1', {
      owner: low,
    });
    const { steps } = objectSteps(
      model([obj('materialized view app.mv', 'materialized view', create)]),
      model([before]),
      ctx,
    );
    expect(renderSql(steps.find((s) => s.kind === 'create_object')!)).toEqual([
      create,
      'ALTER MATERIALIZED VIEW app.mv OWNER TO "Low Role"',
    ]);
  });

  it('an object the applier owned, or a new one, gets no ALTER … OWNER', () => {
    const was = obj('view app.v', 'view', 'CREATE VIEW app.v AS SELECT 1');
    const now = obj('view app.v', 'view', 'CREATE VIEW app.v AS SELECT 2');
    const other = obj('view app.w', 'view', 'CREATE VIEW app.w AS SELECT 3');
    const { steps } = objectSteps(model([now, other]), model([was]), ctx);
    expect(shown(steps)).toEqual([
      ['drop view app.v (to create it again)', ['DROP VIEW app.v']],
      ['create view app.w', ['CREATE VIEW app.w AS SELECT 3']],
      ['create again view app.v', ['CREATE VIEW app.v AS SELECT 2']],
    ]);
  });
});

describe('routines created again keep their owner', () => {
  const routine = (id: string, definition: string, result: string, owner?: Owner): Routine => ({
    id,
    qname: { schema: 'app', name: 'f' },
    kind: 'function',
    argTypes: id.includes('(integer)') ? ['integer'] : [],
    definition,
    result,
    ...(owner ? { owner } : {}),
  });

  it('a routine whose result type changes is dropped, created again and given back', () => {
    const was = routine(
      'app.f(integer)',
      'CREATE FUNCTION app.f(a integer) RETURNS integer LANGUAGE sql AS $$SELECT a$$',
      'integer',
      low,
    );
    const now = routine(
      'app.f(integer)',
      'CREATE FUNCTION app.f(a integer) RETURNS bigint LANGUAGE sql AS $$SELECT a$$',
      'bigint',
    );
    const { steps } = routineDefinitionSteps(model([], [now]), model([], [was]), [], false);
    expect(shown(steps)).toEqual([
      [
        'drop function app.f(integer) to create it again (its result type or arguments changed)',
        ['DROP FUNCTION app.f(integer)'],
      ],
      [
        'create function app.f(integer) (owner Low Role kept)',
        [now.definition, 'ALTER FUNCTION app.f(integer) OWNER TO "Low Role"'],
      ],
    ]);
  });

  it('a routine whose argument list changes takes the former signature’s owner', () => {
    const was = routine(
      'app.f()',
      'CREATE FUNCTION app.f() RETURNS integer LANGUAGE sql AS $$SELECT 1$$',
      'integer',
      low,
    );
    const now = routine(
      'app.f(integer)',
      'CREATE FUNCTION app.f(a integer) RETURNS integer LANGUAGE sql AS $$SELECT a$$',
      'integer',
    );
    const { steps } = routineDefinitionSteps(model([], [now]), model([], [was]), [], false);
    expect(renderSql(steps[1]!)).toEqual([now.definition, 'ALTER FUNCTION app.f(integer) OWNER TO "Low Role"']);
  });
});

describe('owners in the catalog answer', () => {
  const routine = (owner: Owner | null) => ({
    schema: 'app',
    name: 'f',
    kind: 'f',
    language: 'sql',
    argTypes: [],
    result: 'integer',
    definition: null,
    owner,
    distribution: null,
  });
  const view = (owner: Owner | null) => ({
    kind: 'view',
    name: 'app.v',
    parent: null,
    create: ['CREATE VIEW app.v AS SELECT 1'],
    drop: ['DROP VIEW app.v'],
    deps: [],
    labels: null,
    extension: null,
    owner,
  });
  const raw = (owner: Owner | null, eventTriggers: unknown) => ({
    server: { versionNum: 150000, version: '15', database: 'd', citus: null },
    schemas: ['app'],
    tables: [],
    sequences: [],
    routines: [routine(owner)],
    objects: [view(owner)],
    eventTriggers,
    nodes: [],
  });

  it.each([
    ['zod', (v: unknown): unknown => catalogSchema.parse(v)],
    ['the tool', (v: unknown): unknown => catalogDoc(v as never)],
  ])(
    '%s: an owner that is the reader, and no event trigger, are absent keys (the document stays JSON)',
    (_n, parse) => {
      const doc = parse(raw(null, null)) as Record<string, unknown> & { routines: object[]; objects: object[] };
      expect('eventTriggers' in doc || 'owner' in doc.routines[0]! || 'owner' in doc.objects[0]!).toBe(false);
      const theirs = parse(raw(low, [{ name: 'e', routine: 'app.ev()', owner: low }]));
      const model = catalogToModel(theirs as never).model;
      expect([model.routines['app.f()']!.owner, model.objects['view app.v']!.owner, model.eventTriggers]).toEqual([
        low,
        low,
        [{ name: 'e', routine: 'app.ev()', owner: low }],
      ]);
    },
  );
});
