// Steps that widen access carry `widens_access` and say what they widen (checks/access-notes.ts): a
// permissive policy created, a policy changed, row-level security disabled or no longer forced, a
// view that loses security_invoker or security_barrier, a grant that gives a role more, a
// function that becomes LEAKPROOF, an extension updated. What narrows or stays the same does not.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Routine, SqlObject } from '../../src/model/types.js';
import { markAccessWidening } from '../../src/plan/checks/access-notes.js';
import { objectSteps } from '../../src/plan/diff/objects.js';
import { hazardsOf, summarize } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

function model(objects: SqlObject[], routines: Routine[] = []): ClusterModel {
  return {
    schemas: ['public', 'app'],
    groups: {},
    sequences: {},
    routines: Object.fromEntries(routines.map((r) => [r.id, r])),
    tables: {
      'app.t': {
        id: 'app.t',
        qname: { schema: 'app', name: 't' },
        unique: [],
        indexes: [],
        foreignKeys: [],
        distribution: { kind: 'local' },
      },
    },
    objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  };
}
const obj = (id: string, kind: SqlObject['kind'], create: string[], drop: string[] = []): SqlObject => ({
  id,
  kind,
  name: id.slice(kind.length + 1),
  parent: 'relation app.t',
  create,
  drop,
  provides: kind === 'view' ? [`relation ${id.slice(5)}`] : [],
  deps: ['relation app.t'],
});
const ctx = {
  prune: false,
  ignore: () => false,
  changedRelations: new Set<string>(),
  recreatedRoutines: new Set<string>(),
  recorded: {},
};
/** The object diff's steps with what they widen: [summary, hazards] each. */
function planned(desired: SqlObject[], actual: SqlObject[], over: Partial<typeof ctx> = {}): [string, string[]][] {
  const d = model(desired);
  const a = model(actual);
  const { steps } = objectSteps(d, a, { ...ctx, ...over });
  return markAccessWidening(steps, d, a).map((s) => [summarize(s), [...hazardsOf(s)]]);
}
const policy = (create: string) => obj('policy app.t.p', 'policy', [create], ['DROP POLICY p ON app.t']);

describe('policies', () => {
  it('a new permissive policy widens access, and says what it lets through', () => {
    expect(planned([policy('CREATE POLICY p ON app.t FOR SELECT TO reader USING (owner = current_user)')], [])).toEqual(
      [
        [
          'create policy app.t.p; widens access: policy p on app.t is permissive (USING (owner = current_user))',
          ['widens_access'],
        ],
      ],
    );
  });

  it('a new restrictive policy only narrows: no hazard', () => {
    expect(planned([policy('CREATE POLICY p ON app.t AS RESTRICTIVE USING (x > 0)')], [])).toEqual([
      ['create policy app.t.p', []],
    ]);
  });

  it('a restrictive policy made permissive: the drop weakens security, the create widens access', () => {
    expect(
      planned(
        [policy('CREATE POLICY p ON app.t USING (true) WITH CHECK ((x > 0))')],
        [policy('CREATE POLICY p ON app.t AS RESTRICTIVE USING ((x > 0))')],
      ),
    ).toEqual([
      ['drop policy app.t.p (to create it again)', ['weakens_security']],
      [
        'create again policy app.t.p; widens access: policy p on app.t is permissive (USING (true) WITH CHECK ((x > 0)))',
        ['widens_access'],
      ],
    ]);
  });

  it('a restrictive policy changed may narrow less: widens access', () => {
    expect(
      planned(
        [policy('CREATE POLICY p ON app.t AS RESTRICTIVE USING (x > -1)')],
        [policy('CREATE POLICY p ON app.t AS RESTRICTIVE USING ((x > 0))')],
      )[1],
    ).toEqual([
      'create again policy app.t.p; widens access: policy p on app.t changes (restrictive, USING (x > -1))',
      ['widens_access'],
    ]);
  });

  it('a policy created again as it was (a column it reads changes type) widens nothing', () => {
    const p = { ...policy('CREATE POLICY p ON app.t USING ((x > 0))'), deps: ['relation app.t', 'column app.t.x'] };
    expect(
      planned([p], [p], {
        changedRelations: new Set(['relation app.t']),
        changedColumns: new Set(['column app.t.x']),
      } as Partial<typeof ctx>),
    ).toEqual([
      ['drop policy app.t.p (to create it again)', ['weakens_security']],
      ['create again policy app.t.p', []],
    ]);
  });
});

describe('row-level security', () => {
  const rls = (create: string[]) =>
    obj('row level security app.t', 'row level security', create, [
      'ALTER TABLE app.t NO FORCE ROW LEVEL SECURITY',
      'ALTER TABLE app.t DISABLE ROW LEVEL SECURITY',
    ]);
  const forced = rls(['ALTER TABLE app.t ENABLE ROW LEVEL SECURITY', 'ALTER TABLE app.t FORCE ROW LEVEL SECURITY']);

  it('no longer forced: the step that drops it says so', () => {
    expect(planned([rls(['ALTER TABLE app.t ENABLE ROW LEVEL SECURITY'])], [forced])).toEqual([
      [
        'drop row level security app.t (to create it again); widens access: row level security no longer forced on app.t (its owner bypasses it)',
        ['weakens_security', 'widens_access'],
      ],
      ['create again row level security app.t', []],
    ]);
  });

  it('pruned: disabled and no longer forced', () => {
    expect(planned([], [forced], { prune: true })).toEqual([
      [
        'drop row level security app.t (prune); widens access: row level security disabled on app.t; widens access: row level security no longer forced on app.t (its owner bypasses it)',
        ['weakens_security', 'widens_access'],
      ],
    ]);
  });
});

describe('views', () => {
  const view = (create: string) => obj('view app.v', 'view', [create], ['DROP VIEW app.v']);

  it.each([
    ['security_invoker=true', 'security_invoker'],
    ['security_barrier', 'security_barrier'],
  ])('a view that loses %s widens access', (option, lost) => {
    expect(
      planned([view('CREATE VIEW app.v AS SELECT 1')], [view(`CREATE VIEW app.v WITH (${option}) AS\n SELECT 1`)])[1],
    ).toEqual([`create again view app.v; widens access: view app.v loses ${lost}`, ['widens_access']]);
  });

  it('a view that keeps or gains them widens nothing', () => {
    expect(
      planned(
        [view('CREATE VIEW app.v WITH (security_invoker = on, security_barrier) AS SELECT 2')],
        [view('CREATE VIEW app.v WITH (security_invoker=true) AS\n SELECT 1')],
      )[1],
    ).toEqual(['create again view app.v', []]);
  });
});

describe('grants', () => {
  const grants = (...create: string[]) =>
    obj('privileges table app.t to reader', 'privileges', create, ['REVOKE ALL ON TABLE app.t FROM reader']);

  it.each([
    ['a new grant', [], ['GRANT SELECT ON TABLE app.t TO reader'], 'reader gains SELECT'],
    [
      'more privileges',
      ['GRANT SELECT ON TABLE app.t TO reader'],
      ['GRANT SELECT, INSERT ON TABLE app.t TO reader'],
      'reader gains INSERT',
    ],
    [
      'the grant option',
      ['GRANT SELECT ON TABLE app.t TO reader'],
      ['GRANT SELECT ON TABLE app.t TO reader WITH GRANT OPTION'],
      'reader gains SELECT WITH GRANT OPTION',
    ],
    [
      'a column more',
      ['GRANT SELECT (a) ON TABLE app.t TO reader'],
      ['GRANT SELECT (a, b) ON TABLE app.t TO reader'],
      'reader gains SELECT (b)',
    ],
    [
      'defaults for objects created later',
      [],
      ['ALTER DEFAULT PRIVILEGES FOR ROLE owner GRANT SELECT ON TABLES TO reader'],
      'reader gains SELECT',
    ],
  ])('%s widens access', (_name, before, after, what) => {
    const steps = planned([grants(...after)], before.length > 0 ? [grants(...before)] : []);
    expect(steps).toEqual([
      [expect.stringMatching(new RegExp(`; widens access: ${what.replace(/[()]/g, '\\$&')}$`)), ['widens_access']],
    ]);
  });

  it.each([
    ['fewer privileges', ['GRANT SELECT, INSERT ON TABLE app.t TO reader'], ['GRANT SELECT ON TABLE app.t TO reader']],
    [
      'a column of a table it may read whole',
      ['GRANT SELECT ON TABLE app.t TO reader'],
      ['GRANT SELECT, SELECT (a) ON TABLE app.t TO reader'],
    ],
    [
      'the grant option taken away',
      ['GRANT SELECT ON TABLE app.t TO reader WITH GRANT OPTION'],
      ['GRANT SELECT (a) ON TABLE app.t TO reader'],
    ],
  ])('%s widens nothing', (_name, before, after) => {
    expect(planned([grants(...after)], [grants(...before)])).toEqual([['change privileges table app.t to reader', []]]);
  });

  it('a grant to PUBLIC is the public_privileges hazard alone', () => {
    const pub = obj('privileges table app.t to PUBLIC', 'privileges', ['GRANT SELECT ON TABLE app.t TO PUBLIC']);
    expect(planned([pub], [])).toEqual([
      ['create privileges table app.t to PUBLIC: PUBLIC gets SELECT on table app.t', ['public_privileges']],
    ]);
  });
});

describe('routines and extensions', () => {
  const f = (definition: string): Routine => ({
    id: 'app.f(integer)',
    qname: { schema: 'app', name: 'f' },
    kind: 'function',
    argTypes: ['integer'],
    definition,
  });
  const base = { routine: { schema: 'app', name: 'f' }, signature: 'app.f(integer)', routineKind: 'function' as const };
  const leaky =
    'CREATE OR REPLACE FUNCTION app.f(a integer) RETURNS boolean LANGUAGE sql LEAKPROOF AS $$SELECT a > 0$$';
  const plain = 'CREATE FUNCTION app.f(a integer) RETURNS boolean LANGUAGE sql AS $$SELECT a > 1$$';
  const mark = (step: Step, actual: Routine[]) => {
    const [s] = markAccessWidening([step], model([]), model([], actual));
    return [summarize(s!), hazardsOf(s!)];
  };

  it('a function that becomes LEAKPROOF widens access; one that already was does not', () => {
    expect(mark({ kind: 'replace_routine', ...base, definition: leaky }, [f(plain)])).toEqual([
      'replace the body of function app.f(integer); widens access: function app.f(integer) is LEAKPROOF (it may be shown rows that policies and security barrier views hide)',
      ['widens_access'],
    ]);
    expect(mark({ kind: 'create_routine', ...base, definition: leaky }, [])[1]).toEqual(['widens_access']);
    expect(mark({ kind: 'replace_routine', ...base, definition: leaky }, [f(leaky)])[1]).toEqual([]);
  });

  it('an extension update runs its scripts: widens access', () => {
    const ext = (version: string): SqlObject => ({
      ...obj('extension citext', 'extension', [`CREATE EXTENSION citext VERSION '${version}'`]),
      parent: undefined,
      deps: [],
      extension: { version, updates: ['1.6'] },
    });
    const step: Step = {
      kind: 'alter_object',
      object: 'extension citext',
      objectKind: 'extension',
      statements: ["ALTER EXTENSION citext UPDATE TO '1.6'"],
      what: 'update',
    };
    const [s] = markAccessWidening([step], model([ext('1.6')]), model([ext('1.4')]));
    expect([summarize(s!), hazardsOf(s!)]).toEqual([
      "update extension citext; widens access: extension citext is updated to version 1.6 (its scripts run with this role's rights)",
      ['widens_access'],
    ]);
    // Moved to another schema only: no script runs.
    const moved = markAccessWidening(
      [{ ...step, statements: ['ALTER EXTENSION citext SET SCHEMA app'] }],
      model([ext('1.4')]),
      model([ext('1.4')]),
    );
    expect(hazardsOf(moved[0]!)).toEqual([]);
  });
});
