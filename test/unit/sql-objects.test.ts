// Objects defined by SQL, without a database: what each statement declares (from-sql.ts) and
// the steps the object diff plans for pairs of models (diff/objects.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, SqlObject } from '../../src/model/types.js';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { objectKey } from '../../src/objects/key.js';
import { privilegesFromCatalog } from '../../src/objects/privileges-catalog.js';
import { objectSteps, type ObjectDiffContext } from '../../src/plan/diff/objects.js';
import { keyHash } from '../../src/plan/same-object.js';
import { summarize } from '../../src/plan/steps/step-spec.js';
import { loadParser, typeFromNode, type Node } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

const argTypes = (owa: Node): string =>
  (owa.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t).sql).join(', ');
const read = (text: string) => objectsFromSql([{ file: 'x.sql', text }], 'public', argTypes);

describe("a comment on a composite type's column", () => {
  it('goes with the type, made after it', () => {
    const { objects, problems } = read("CREATE TYPE app.pair AS (a int);\nCOMMENT ON COLUMN app.pair.a IS 'x';");
    expect(problems).toEqual([]);
    expect(objects['comment on column app.pair.a']).toMatchObject({ parent: 'type app.pair', deps: ['type app.pair'] });
  });
});

describe('what each statement declares', () => {
  it.each([
    [
      'CREATE VIEW app.v AS SELECT * FROM app.t JOIN s.u USING (id)',
      'view app.v',
      undefined,
      ['relation app.t', 'relation s.u'],
    ],
    [
      'CREATE MATERIALIZED VIEW mv AS SELECT count(*) FROM t',
      'materialized view public.mv',
      undefined,
      ['relation public.t'],
    ],
    ["CREATE TYPE app.e AS ENUM ('a')", 'enum app.e', undefined, []],
    ['CREATE DOMAIN d AS app.e CHECK (VALUE IS NOT NULL)', 'domain public.d', undefined, ['type app.e']],
    ['CREATE TYPE app.c AS (a app.e, b int)', 'composite type app.c', undefined, ['type app.e']],
    ['CREATE EXTENSION IF NOT EXISTS citext', 'extension citext', undefined, []],
    ['CREATE INDEX i ON app.t (lower(x))', 'index app.i', 'relation app.t', ['relation app.t']],
    [
      'ALTER TABLE ONLY app.t ADD CONSTRAINT c CHECK (x > 0)',
      'check constraint app.t.c',
      'relation app.t',
      ['relation app.t'],
    ],
    [
      'ALTER TABLE app.t ADD CONSTRAINT x EXCLUDE USING gist (r WITH &&)',
      'exclusion constraint app.t.x',
      'relation app.t',
      ['relation app.t'],
    ],
    [
      'CREATE TRIGGER tg BEFORE INSERT ON app.t FOR EACH ROW EXECUTE FUNCTION app.f()',
      'trigger app.t.tg',
      'relation app.t',
      ['relation app.t', 'routine app.f'],
    ],
    [
      'CREATE OPERATOR ~~ (LEFTARG = public.bytea20, RIGHTARG = varchar(3), PROCEDURE = liketext)',
      'operator public.~~(bytea20, character varying)',
      undefined,
      ['routine public.liketext', 'type public.bytea20'],
    ],
    [
      'CREATE OPERATOR app.=== (FUNCTION = app.eq, RIGHTARG = app.money2, COMMUTATOR = ===)',
      'operator app.===(NONE, app.money2)',
      undefined,
      ['routine app.eq', 'type app.money2'],
    ],
    ['CREATE OPERATOR FAMILY app.f USING btree', 'operator family app.f USING btree', undefined, []],
    [
      'CREATE OPERATOR CLASS c FOR TYPE app.mood USING hash FAMILY app.f AS OPERATOR 1 = (anyenum, anyenum), FUNCTION 2 (app.mood, app.mood) app.h(app.mood, int8), STORAGE app.mood',
      'operator class public.c USING hash',
      undefined,
      ['operator family app.f USING hash', 'routine app.h', 'type app.mood'],
    ],
    [
      "COMMENT ON OPERATOR CLASS app.c USING hash IS 'x'",
      'comment on operator class app.c USING hash',
      'operator class app.c USING hash',
      ['operator class app.c USING hash'],
    ],
    [
      'CREATE RULE r AS ON DELETE TO app.t DO INSTEAD DELETE FROM app.u WHERE u.id = old.id',
      'rule app.t.r',
      'relation app.t',
      ['relation app.t', 'relation app.u'],
    ],
    [
      'ALTER TABLE ONLY app.p1 ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES app.r (id)',
      'foreign key app.p1.f',
      'relation app.p1',
      ['relation app.p1', 'relation app.r'],
    ],
    [
      'ALTER TABLE app.p1 ADD CONSTRAINT k PRIMARY KEY (a)',
      'primary key app.p1.k',
      'relation app.p1',
      ['relation app.p1'],
    ],
    ['ALTER TABLE app.t ENABLE ROW LEVEL SECURITY', 'row level security app.t', 'relation app.t', ['relation app.t']],
    [
      'CREATE POLICY p ON app.t USING (app.allowed(x))',
      'policy app.t.p',
      'relation app.t',
      ['relation app.t', 'routine app.allowed'],
    ],
    ["COMMENT ON COLUMN app.t.x IS 'x'", 'comment on column app.t.x', 'relation app.t', ['relation app.t']],
    [
      "COMMENT ON CONSTRAINT positive ON DOMAIN app.posint IS 'x'",
      'comment on constraint positive ON DOMAIN app.posint',
      'type app.posint',
      ['type app.posint'],
    ],
    [
      "COMMENT ON FUNCTION app.f(int, text) IS 'x'",
      'comment on function app.f(integer, text)',
      'routine app.f',
      ['routine app.f'],
    ],
    [
      "COMMENT ON TRIGGER tg ON app.t IS 'x'",
      'comment on trigger tg ON app.t',
      'relation app.t',
      ['relation app.t', 'trigger app.t.tg'],
    ],
    ["COMMENT ON SCHEMA app IS 'x'", 'comment on schema app', undefined, []],
    ['CREATE VIEW "Odd name" AS SELECT 1', 'view public."Odd name"', undefined, []],
  ])('%s', (sql, id, parent, deps) => {
    const { objects, problems } = read(sql);
    expect(problems).toEqual([]);
    const o = objects[id]!;
    expect(o).toBeDefined();
    expect(o.parent).toBe(parent);
    // Unqualified built-ins (count, text) are named too; they only matter when they name a declared object.
    expect(o.deps).toEqual(expect.arrayContaining(deps));
    expect(o.deps.filter((d) => !deps.includes(d)).every((d) => d.includes('public.'))).toBe(true);
  });

  it('ADD VALUE and DISABLE TRIGGER complete what an earlier statement declared', () => {
    const { objects, problems } = read(`CREATE TYPE e AS ENUM ('a', 'c');
ALTER TYPE e ADD VALUE 'b' AFTER 'a';
ALTER TYPE e ADD VALUE 'd';
ALTER TYPE e ADD VALUE IF NOT EXISTS 'a';
CREATE TRIGGER tg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f();
ALTER TABLE t DISABLE TRIGGER tg;`);
    expect(problems).toEqual([]);
    expect(objects['enum public.e']!.labels).toEqual(['a', 'b', 'c', 'd']);
    expect(objects['enum public.e']!.create).toEqual(["CREATE TYPE public.e AS ENUM ('a', 'b', 'c', 'd')"]);
    expect(objects['trigger public.t.tg']!.create).toHaveLength(2);
  });

  it('refuses, at file:line:col, what declares no object it manages', () => {
    const text = `-- header
CREATE TABLE t (x int);
SET search_path = public;
  CREATE INDEX ON t (x);
CREATE VIEW v AS SELECT 1;
CREATE VIEW v AS SELECT 2;
ALTER TYPE missing ADD VALUE 'x';
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1';
ALTER TABLE t ADD PRIMARY KEY (x);`;
    expect(read(text).problems.map((p) => `${p.where} ${p.code}`)).toEqual([
      'x.sql:2:1 unsupported_statement',
      'x.sql:4:3 unsupported_statement',
      'x.sql:6:1 duplicate_object',
      'x.sql:7:1 amends_undeclared',
      'x.sql:9:1 unsupported_statement',
    ]);
    // A syntax error anywhere: the file is reported once, at the error.
    expect(read(`${text}\nSELEC 1;`).problems.map((p) => `${p.where} ${p.code}`)).toEqual(['x.sql:10:1 invalid_sql']);
  });

  it('an operator class without its FAMILY, and an ALTER OPERATOR FAMILY … DROP, are refused with the way to write them', () => {
    const { problems } =
      read(`CREATE OPERATOR CLASS c FOR TYPE int4 USING btree AS OPERATOR 1 <, FUNCTION 1 btint4cmp(int4, int4);
CREATE OPERATOR FAMILY f USING btree;
ALTER OPERATOR FAMILY f USING btree DROP OPERATOR 1 (int4, int8);`);
    expect(problems.map((p) => `${p.where} ${p.code}`)).toEqual([
      'x.sql:1:1 unsupported_statement',
      'x.sql:3:1 unsupported_statement',
    ]);
    expect(problems[0]!.message).toContain('CREATE OPERATOR FAMILY f USING m first');
  });

  it('refuses a SELECT or SET that would not run, and accepts what pg_dump writes', () => {
    const text = `SET statement_timeout = 0;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SELECT pg_catalog.set_config('search_path', '', false), app.grant_all();
SELECT app.seed();
SELECT set_config('role', 'postgres', false);
SET ROLE postgres;
SET SESSION AUTHORIZATION postgres;
SET LOCAL search_path = app;
DO $$ BEGIN PERFORM 1; END $$;
INSERT INTO app.t VALUES (1);
ALTER ROLE app_user SUPERUSER;
SET search_path = app;
CREATE VIEW v AS SELECT 1 AS one;`;
    const { objects, problems } = read(text);
    expect(problems.map((p) => `${p.where} ${p.code}`)).toEqual([
      'x.sql:4:1 unsupported_statement',
      'x.sql:5:1 unsupported_statement',
      'x.sql:6:1 unsupported_statement',
      'x.sql:7:1 unsupported_statement',
      'x.sql:8:1 unsupported_statement',
      'x.sql:9:1 unsupported_statement',
      'x.sql:10:1 unsupported_statement',
      'x.sql:11:1 unsupported_statement',
      'x.sql:12:1 unsupported_statement',
    ]);
    expect(problems[1]!.message).toBe(
      "a SELECT is not a declaration and is not run by the plan (only pg_dump's set_config('search_path', '', false) line is accepted): call functions from a migration of your own, not from a sql: file",
    );
    expect(problems[3]!.message).toBe(
      'SET ROLE is refused: it changes whose privileges the statements after it run with; the plan runs each statement as the role that applies it, and would not run this line',
    );
    expect(Object.keys(objects)).toEqual(['view app.v']);
  });

  it('compares what PostgreSQL prints back with what a user writes', () => {
    expect(objectKey(['ALTER TABLE app.t ADD CONSTRAINT c CHECK ((price > (0)::numeric))'])).toBe(
      objectKey(['ALTER TABLE ONLY app.t ADD CONSTRAINT c CHECK (price > 0)']),
    );
    expect(objectKey(['CREATE INDEX i ON public.t USING btree (lower(name))'])).toBe(
      objectKey(['CREATE INDEX IF NOT EXISTS i ON t (lower(name))']),
    );
    expect(objectKey(['CREATE INDEX i ON public.t USING btree (lower(name))'])).not.toBe(
      objectKey(['CREATE INDEX i ON t (upper(name))']),
    );
  });
});

// --- the object diff on pairs of models ---------------------------------------------------

function obj(id: string, create: string, extra: Partial<SqlObject> = {}): SqlObject {
  const [kind, name] = splitId(id);
  const provides =
    kind === 'view' || kind === 'materialized view'
      ? [`relation ${name}`]
      : ['enum', 'domain', 'composite type'].includes(kind)
        ? [`type ${name}`]
        : [];
  return {
    id,
    kind: kind as SqlObject['kind'],
    name,
    create: [create],
    drop: [`DROP ${id}`],
    provides,
    deps: [],
    ...extra,
  };
}
function splitId(id: string): [string, string] {
  for (const k of [
    'materialized view',
    'check constraint',
    'composite type',
    'row level security',
    'view',
    'enum',
    'domain',
    'index',
    'trigger',
    'policy',
    'comment',
    'extension',
  ]) {
    if (id.startsWith(`${k} `)) return [k, id.slice(k.length + 1)];
  }
  throw new Error(id);
}
function model(objects: SqlObject[], tables: string[] = []): ClusterModel {
  return {
    schemas: ['public'],
    groups: {},
    sequences: {},
    routines: {},
    tables: Object.fromEntries(
      tables.map((t) => [
        t,
        {
          id: t,
          qname: { schema: 'public', name: t.split('.')[1]! },
          unique: [],
          indexes: [],
          foreignKeys: [],
          distribution: { kind: 'local' as const },
        },
      ]),
    ),
    objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  };
}
const ctx = (over: Partial<ObjectDiffContext> = {}): ObjectDiffContext => ({
  prune: false,
  ignore: () => false,
  changedRelations: new Set(),
  recreatedRoutines: new Set(),
  recorded: {},
  ...over,
});
const plan = (d: ClusterModel, a: ClusterModel, c = ctx()) => {
  const r = objectSteps(d, a, c);
  return {
    steps: r.steps.map(summarize),
    problems: r.problems.map((p) => `${p.object}: ${p.code}`),
    unmanaged: r.unmanaged,
  };
};

describe('object diff', () => {
  const v = obj('view public.v', 'CREATE VIEW public.v AS SELECT 1', { deps: [] });
  const v2 = obj('view public.v2', 'CREATE VIEW public.v2 AS SELECT * FROM public.v', { deps: ['relation public.v'] });
  const c = obj('comment on view public.v2', "COMMENT ON VIEW public.v2 IS 'x'", {
    parent: 'relation public.v2',
    deps: ['relation public.v2'],
  });

  it.each([
    ['nothing declared, nothing there', [], [], { steps: [], problems: [], unmanaged: [] }],
    [
      'creates in dependency order',
      [c, v2, v],
      [],
      {
        steps: ['create view public.v', 'create view public.v2', 'create comment on view public.v2'],
        problems: [],
        unmanaged: [],
      },
    ],
    ['same definition: nothing', [v, v2], [v, v2], { steps: [], problems: [], unmanaged: [] }],
    [
      'undeclared: unmanaged, its comment goes with it',
      [v],
      [v, v2, c],
      { steps: [], problems: [], unmanaged: ['view public.v2'] },
    ],
    [
      'a changed view takes its dependents with it',
      [obj('view public.v', 'CREATE VIEW public.v AS SELECT 2'), v2, c],
      [v, v2, c],
      {
        steps: [
          'drop comment on view public.v2 (to create it again)',
          'drop view public.v2 (to create it again)',
          'drop view public.v (to create it again)',
          'create again view public.v',
          'create again view public.v2',
          'create again comment on view public.v2',
        ],
        problems: [],
        unmanaged: [],
      },
    ],
    [
      'a changed comment is set again, nothing dropped',
      [v, v2, obj('comment on view public.v2', "COMMENT ON VIEW public.v2 IS 'y'", { parent: 'relation public.v2' })],
      [v, v2, c],
      { steps: ['change comment on view public.v2'], problems: [], unmanaged: [] },
    ],
    [
      'an undeclared dependent of a changed view is a problem',
      [obj('view public.v', 'CREATE VIEW public.v AS SELECT 2')],
      [v, v2],
      {
        steps: ['drop view public.v (to create it again)', 'create again view public.v'],
        problems: ['view public.v2: dependent_object'],
        unmanaged: ['view public.v2'],
      },
    ],
  ])('%s', (_name, desired, actual, want) => {
    expect(plan(model(desired as SqlObject[]), model(actual as SqlObject[]))).toEqual(want);
  });

  it('with prune, an undeclared dependent of a changed view is dropped first, other undeclared objects last', () => {
    const other = obj('view public.w', 'CREATE VIEW public.w AS SELECT 3');
    expect(
      plan(
        model([obj('view public.v', 'CREATE VIEW public.v AS SELECT 2')]),
        model([v, v2, other]),
        ctx({ prune: true }),
      ).steps,
    ).toEqual([
      'drop view public.v2 (prune: it depends on what this plan changes)',
      'drop view public.v (to create it again)',
      'create again view public.v',
      'drop view public.w (prune)',
    ]);
  });

  it('a view over a column whose type changes is dropped and created again; an index on that table is not', () => {
    const tv = obj('view public.tv', 'CREATE VIEW public.tv AS SELECT x FROM public.t', {
      deps: ['relation public.t'],
    });
    const ix = obj('index public.i', 'CREATE INDEX i ON public.t (x)', {
      parent: 'relation public.t',
      deps: ['relation public.t'],
    });
    expect(
      plan(
        model([tv, ix], ['public.t']),
        model([tv, ix], ['public.t']),
        ctx({ changedRelations: new Set(['relation public.t']) }),
      ).steps,
    ).toEqual(['drop view public.tv (to create it again)', 'create again view public.tv']);
  });

  it('a definition PostgreSQL prints differently is the same when the last apply recorded it', () => {
    const written = obj('view public.v', 'CREATE VIEW public.v AS SELECT a FROM public.t');
    const printed = obj('view public.v', 'CREATE VIEW public.v AS\n SELECT t.a\n   FROM public.t');
    expect(plan(model([written]), model([printed])).steps).toEqual([
      'drop view public.v (to create it again)',
      'create again view public.v',
    ]);
    const recorded = {
      'view public.v': { desired: keyHash(objectKey(written.create)), actual: keyHash(objectKey(printed.create)) },
    };
    expect(plan(model([written]), model([printed]), ctx({ recorded })).steps).toEqual([]);
    // Drift after the record: planned again.
    const drifted = obj('view public.v', 'CREATE VIEW public.v AS\n SELECT t.b\n   FROM public.t');
    expect(plan(model([written]), model([drifted]), ctx({ recorded })).steps).toHaveLength(2);
  });

  it('enum labels: added where declared, never removed or reordered', () => {
    const e = (labels: string[]) => obj('enum public.e', '', { labels });
    expect(plan(model([e(['a', 'x', 'b', 'y'])]), model([e(['a', 'b'])])).steps).toEqual([
      'add value x enum public.e',
      'add value y enum public.e',
    ]);
    const r = objectSteps(model([e(['a', 'x', 'b', 'y'])]), model([e(['a', 'b'])]), ctx());
    expect(r.steps.flatMap((s) => ('statements' in s ? s.statements : []))).toEqual([
      "ALTER TYPE public.e ADD VALUE 'x' BEFORE 'b'",
      "ALTER TYPE public.e ADD VALUE 'y'",
    ]);
    expect(plan(model([e(['a'])]), model([e(['a', 'b'])])).problems).toEqual(['enum public.e: enum_change']);
    expect(plan(model([e(['b', 'a'])]), model([e(['a', 'b'])])).problems).toEqual(['enum public.e: enum_change']);
  });

  it('a domain a table uses is not dropped to change it', () => {
    const d = (check: string) => obj('domain public.d', `CREATE DOMAIN public.d AS int CHECK (${check})`);
    const actual = { ...model([d('VALUE > 0')]), typeUsers: { 'type public.d': ['relation public.t'] } };
    expect(plan(model([d('VALUE > 1')]), actual)).toEqual({
      steps: [],
      problems: ['domain public.d: type_in_use'],
      unmanaged: [],
    });
  });

  it('sub-objects of a table the manifest does not declare are not listed on their own', () => {
    const trg = obj(
      'trigger public.u.tg',
      'CREATE TRIGGER tg BEFORE INSERT ON public.u FOR EACH ROW EXECUTE FUNCTION f()',
      { parent: 'relation public.u' },
    );
    expect(plan(model([], ['public.t']), model([trg], ['public.t', 'public.u'])).unmanaged).toEqual([]);
    expect(plan(model([], ['public.u']), model([trg], ['public.u'])).unmanaged).toEqual(['trigger public.u.tg']);
  });
});

describe('functions and procedures in SQL files', () => {
  const files: Record<string, string> = {
    '/p/citus-migrate.yaml': 'version: 1\nroutines:\n  bump: { signature: bump(bigint) }\nsql: [sql]\n',
    '/p/sql/a.sql': `CREATE FUNCTION public.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE FUNCTION bump(x bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT x + 1 $$;
CREATE VIEW v AS SELECT bump(1);
`,
  };
  const fs = {
    readFile: (p: string) => {
      if (files[p] === undefined) throw Object.assign(new Error('no'), { code: 'ENOENT' });
      return files[p]!;
    },
    size: (p: string) => files[p]!.length,
    listSql: (p: string) => (p === '/p/sql' ? ['a.sql'] : undefined),
  };

  it('become local routines, or give their body to a routine declared by signature', async () => {
    const { loadManifest } = await import('../../src/manifest/load.js');
    const m = await loadManifest('/p/citus-migrate.yaml', fs, '/');
    expect(Object.keys(m.desired.routines).sort()).toEqual(['public.bump(bigint)', 'public.touch()']);
    expect(m.desired.routines['public.touch()']!.kind).toBe('function');
    expect(m.desired.routines['public.touch()']!.distribution).toBeUndefined();
    expect(m.desired.routines['public.bump(bigint)']!.definition).toContain('SELECT x + 1');
    expect(m.desired.routines['public.bump(bigint)']!.distribution).toEqual({});
    expect(m.desired.objects['view public.v']!.deps).toContain('routine public.bump');
  });

  it('a PL/pgSQL error is reported at its line and column in the SQL file', async () => {
    const { loadManifest } = await import('../../src/manifest/load.js');
    files['/p/sql/a.sql'] =
      'CREATE VIEW v AS SELECT 1;\nCREATE PROCEDURE p(a int)\nLANGUAGE plpgsql AS $$\nBEGIN\n  UPDAT t SET v = a;\nEND $$;\n';
    const err = await loadManifest('/p/citus-migrate.yaml', fs, '/').catch((e: unknown) => e);
    expect(JSON.stringify(err)).toMatch(/sql\/a\.sql:5:3: PL\/pgSQL: syntax error at or near \\"UPDAT\\"/);
  });
});

describe('privileges', () => {
  it('GRANT and REVOKE statements add up, in order, to one object per object and grantee', () => {
    const { objects, problems } = read(`GRANT SELECT, INSERT ON app.t, app.u TO r1, PUBLIC;
REVOKE INSERT ON app.u FROM r1;
GRANT UPDATE (b, a) ON app.t TO r1 WITH GRANT OPTION;
GRANT ALL ON SCHEMA app TO r2;
REVOKE ALL ON FUNCTION app.f(int) FROM PUBLIC;
GRANT USAGE ON TYPE app.e TO PUBLIC;
GRANT SELECT ON ALL TABLES IN SCHEMA app TO r1;`);
    expect(problems.map((p) => `${p.where} ${p.code}`)).toEqual(['x.sql:7:1 unsupported_statement']);
    const got = Object.fromEntries(Object.values(objects).map((o) => [o.id, o.create]));
    expect(got).toEqual({
      'privileges table app.t to r1': [
        'GRANT SELECT, INSERT ON TABLE app.t TO r1',
        'GRANT UPDATE (a, b) ON TABLE app.t TO r1 WITH GRANT OPTION',
      ],
      'privileges table app.t to PUBLIC': ['GRANT SELECT, INSERT ON TABLE app.t TO PUBLIC'],
      'privileges table app.u to r1': ['GRANT SELECT ON TABLE app.u TO r1'],
      'privileges table app.u to PUBLIC': ['GRANT SELECT, INSERT ON TABLE app.u TO PUBLIC'],
      'privileges schema app to r2': ['GRANT USAGE, CREATE ON SCHEMA app TO r2'],
      'privileges function app.f(integer) revoked from PUBLIC': [
        'REVOKE EXECUTE ON FUNCTION app.f(integer) FROM PUBLIC',
      ],
    });
    expect(objects['privileges table app.t to r1']!.parent).toBe('relation app.t');
  });

  it('what an owner revoked from itself: a REVOKE from a role that holds nothing, as pg_dump writes it, equal to the catalog', () => {
    const { objects, problems } = read(`REVOKE ALL ON TABLE app.t FROM app_owner;
GRANT SELECT, INSERT, UPDATE, REFERENCES, TRIGGER ON TABLE app.t TO app_owner;
REVOKE TRUNCATE ON app.s FROM deployer;
GRANT SELECT ON app.s TO r1;
REVOKE SELECT ON app.s FROM r1;
REVOKE UPDATE (a) ON app.s FROM r2;
REVOKE GRANT OPTION FOR SELECT ON app.s FROM r3;
REVOKE EXECUTE ON FUNCTION app.f(int) FROM app_owner;`);
    expect(problems).toEqual([]);
    const got = Object.fromEntries(Object.values(objects).map((o) => [o.id, [o.create, o.drop, o.ownerRevoke]]));
    expect(got).toEqual({
      'privileges table app.t revoked from its owner': [
        ['REVOKE DELETE, TRUNCATE ON TABLE app.t FROM app_owner'],
        ['GRANT DELETE, TRUNCATE ON TABLE app.t TO app_owner'],
        { role: 'app_owner', target: 'relation app.t' },
      ],
      'privileges table app.s revoked from its owner': [
        ['REVOKE TRUNCATE ON TABLE app.s FROM deployer'],
        ['GRANT TRUNCATE ON TABLE app.s TO deployer'],
        { role: 'deployer', target: 'relation app.s' },
      ],
      'privileges function app.f(integer) revoked from its owner': [
        ['REVOKE EXECUTE ON FUNCTION app.f(integer) FROM app_owner'],
        ['GRANT EXECUTE ON FUNCTION app.f(integer) TO app_owner'],
        { role: 'app_owner', target: 'routine app.f(integer)' },
      ],
    });
    // The catalog: the row that says the ACL is set names the owner, and its own entries follow.
    const touch = ['TABLE', 'app.t', 'relation app.t', null, null, null, null, null, 'app_owner'] as const;
    const own = (privs: string[]) =>
      privs.map((p) => ['TABLE', 'app.t', 'relation app.t', 'app_owner', p, false, null, null, null] as const);
    const fromCatalog = privilegesFromCatalog([touch, ...own(['SELECT', 'INSERT', 'UPDATE', 'REFERENCES', 'TRIGGER'])]);
    expect(fromCatalog).toEqual(
      [objects['privileges table app.t revoked from its owner']!].map(({ source: _s, searchPath: _p, ...o }) => o),
    );
    // An owner that kept everything (or whose ACL names only others): nothing of its own.
    expect(
      privilegesFromCatalog([
        touch,
        ...own(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']),
      ]),
    ).toEqual([]);
  });
});

describe("names written without their schema compare with the catalog's qualified ones", () => {
  it.each([
    ["COMMENT ON TABLE t IS 'x'", "COMMENT ON TABLE public.t IS 'x'"],
    ["COMMENT ON COLUMN t.c IS 'x'", "COMMENT ON COLUMN public.t.c IS 'x'"],
    ["COMMENT ON FUNCTION f(int) IS 'x'", "COMMENT ON FUNCTION public.f(integer) IS 'x'"],
    ["COMMENT ON TRIGGER tg ON t IS 'x'", "COMMENT ON TRIGGER tg ON public.t IS 'x'"],
    ["COMMENT ON TYPE e IS 'x'", "COMMENT ON TYPE public.e IS 'x'"],
    [
      'CREATE TRIGGER tg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f()',
      'CREATE TRIGGER tg BEFORE INSERT ON public.t FOR EACH ROW EXECUTE FUNCTION public.f()',
    ],
    [
      'CREATE DOMAIN d AS integer CHECK (VALUE > 0)',
      'CREATE DOMAIN public.d AS integer CONSTRAINT d_check CHECK ((VALUE > 0))',
    ],
  ])('%s', (written, printed) => {
    if (written.startsWith('CREATE DOMAIN')) {
      // A domain's unnamed CHECK is named by PostgreSQL: the keys differ (the recorded definition covers it).
      expect(objectKey([written])).not.toBe(objectKey([printed]));
      return;
    }
    expect(objectKey([written])).toBe(objectKey([printed]));
    expect(objectKey([written], 'app')).not.toBe(objectKey([printed]));
  });
});

describe('default privileges', () => {
  it("a role's own, taken away: only those not limited to a schema, as the catalog says them", () => {
    const { objects, problems } =
      read(`ALTER DEFAULT PRIVILEGES FOR ROLE app_owner REVOKE DELETE, TRUNCATE ON TABLES FROM app_owner;
ALTER DEFAULT PRIVILEGES FOR ROLE app_owner IN SCHEMA app REVOKE SELECT ON TABLES FROM app_owner;
ALTER DEFAULT PRIVILEGES FOR ROLE app_owner REVOKE SELECT ON TABLES FROM other;`);
    expect(problems).toEqual([]);
    expect(Object.fromEntries(Object.values(objects).map((o) => [o.id, [o.create, o.ownerRevoke]]))).toEqual({
      'privileges defaults for role app_owner on tables revoked from its owner': [
        ['ALTER DEFAULT PRIVILEGES FOR ROLE app_owner REVOKE DELETE, TRUNCATE ON TABLES FROM app_owner'],
        undefined,
      ],
    });
    const row = (grantee: string | null, priv: string | null, owner: string | null) =>
      ['TABLES', 'app_owner', null, grantee, priv, false, null, null, owner] as const;
    const fromCatalog = privilegesFromCatalog([
      row(null, null, 'app_owner'),
      ...['SELECT', 'INSERT', 'UPDATE', 'REFERENCES', 'TRIGGER'].map((p) => row('app_owner', p, null)),
    ]);
    expect(fromCatalog.map((o) => [o.id, o.create])).toEqual([
      [
        'privileges defaults for role app_owner on tables revoked from its owner',
        ['ALTER DEFAULT PRIVILEGES FOR ROLE app_owner REVOKE DELETE, TRUNCATE ON TABLES FROM app_owner'],
      ],
    ]);
  });

  it('ALTER DEFAULT PRIVILEGES needs FOR ROLE, and renders like the catalog', () => {
    const { objects, problems, schemas } =
      read(`ALTER DEFAULT PRIVILEGES FOR ROLE app_owner IN SCHEMA app, reports GRANT SELECT ON TABLES TO r;
ALTER DEFAULT PRIVILEGES FOR ROLE app_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO r;`);
    expect(problems.map((p) => `${p.where} ${p.code}`)).toEqual(['x.sql:3:1 unsupported_statement']);
    expect(Object.fromEntries(Object.values(objects).map((o) => [o.id, o.create]))).toEqual({
      'privileges defaults for role app_owner in schema app on tables to r': [
        'ALTER DEFAULT PRIVILEGES FOR ROLE app_owner IN SCHEMA app GRANT SELECT ON TABLES TO r',
      ],
      'privileges defaults for role app_owner in schema reports on tables to r': [
        'ALTER DEFAULT PRIVILEGES FOR ROLE app_owner IN SCHEMA reports GRANT SELECT ON TABLES TO r',
      ],
      'privileges defaults for role app_owner on functions revoked from PUBLIC': [
        'ALTER DEFAULT PRIVILEGES FOR ROLE app_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC',
      ],
    });
    // Schemas named there are created if missing.
    expect([...schemas].sort()).toEqual(['app', 'reports']);
  });
});
