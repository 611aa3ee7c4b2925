// Inputs the loader got wrong, against a real PostgreSQL: the library's options (an array of
// hazards), names that are Object.prototype's members, integers past 2^53, deep nesting.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply, CmError, plan } from '../../src/index.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

describe('the library takes its options as documented, or says what is wrong', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
  });

  it('apply takes allowHazards as an array (and as a Set)', async () => {
    await db.query('CREATE TABLE public.old (id bigint); INSERT INTO public.old VALUES (1)');
    const file = join(
      projectDir('version: 1\nprune: true\ntables:\n  t:\n    columns: { id: bigint }\n'),
      'citus-migrate.yaml',
    );
    const seen: string[] = [];
    const r = await apply(db.url, file, { allowHazards: ['drops_data'] }, (e) => {
      if (e.kind === 'step_started') seen.push(e.step.kind);
    });
    expect(r.outcome).toBe('applied');
    expect(seen).toContain('drop_table');
    expect((await plan(db.url, file)).changes).toBe(false);
    await db.query('CREATE TABLE public.old2 (id bigint)');
    const again = await apply(db.url, file, { allowHazards: new Set(['drops_data'] as const) });
    expect(again.outcome).toBe('applied');
  });

  it('apply refuses an unknown hazard with bad_options and the option path, touching nothing', async () => {
    const file = join(projectDir('version: 1\ntables:\n  t:\n    columns: { id: bigint }\n'), 'citus-migrate.yaml');
    const e = await apply(db.url, file, { allowHazards: ['drop_data'] } as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CmError);
    expect((e as CmError).code).toBe('bad_options');
    expect((e as CmError).message).toMatch(/^apply\(\): options\.allowHazards\[0\]: /);
    expect(await db.query("SELECT to_regclass('public.t') IS NULL AS none")).toEqual([{ none: true }]);
  });
});

describe('introspect -o never writes through a link that leaves its folder', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
    await db.query('CREATE TABLE public.t (id bigint); CREATE VIEW public.v AS SELECT id FROM public.t');
  });

  it.each([
    ['the manifest is a dangling link', 'out/citus-migrate.yaml', 'planted', 'it is a symbolic link'],
    ['its sql/ folder links outside', 'out/sql', '', 'is a symbolic link that leads outside'],
  ])('%s: refused, exit 1, nothing written', async (_what, linkAt, target, message) => {
    const dir = projectDir({ 'out/.keep': '' }, 'cm-intro-');
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    mkdirSync(join(dir, 'out'), { recursive: true });
    symlinkSync(join(outside, target), join(dir, linkAt));
    const r = await cli(['introspect', '--database', db.url, '-o', 'out/citus-migrate.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('nothing was written');
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['.keep', linkAt.slice(4)].sort());
  });
});

/** Tables, columns, a schema, an index, a view and a routine named as Object.prototype's members. */
const PROTO_NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];
const PROTO_MANIFEST = [
  'version: 1',
  'prune: true',
  'schemas:',
  '  __proto__: {}',
  'tables:',
  ...PROTO_NAMES.map(
    (t) => `  ${t}:\n    columns: { ${PROTO_NAMES.map((c) => `${c}: bigint`).join(', ')} }\n    primary_key: [${t}]`,
  ),
  '  __proto__.constructor:',
  '    columns: { __proto__: text }',
  '    indexes: [{ columns: [__proto__], name: __proto__ }]',
  'routines:',
  '  __proto__: { file: routines/proto.sql }',
  'sql: [views.sql]',
  '',
].join('\n');

describe('names that are members of Object.prototype are names like any other', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
  });

  const project = (manifest = PROTO_MANIFEST): string =>
    join(
      projectDir({
        'citus-migrate.yaml': manifest,
        'routines/proto.sql': 'CREATE FUNCTION public.__proto__() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n',
        'views.sql': 'CREATE VIEW public."valueOf_v" AS SELECT "toString" FROM public."valueOf";\n',
      }),
      'citus-migrate.yaml',
    );

  it('applies, keeps the rows, and plans again empty (prune: true drops nothing)', async () => {
    const file = project();
    const first = await apply(db.url, file);
    expect(first.outcome).toBe('applied');
    const created = await db.query<{ t: string }>(
      "SELECT n.nspname || '.' || c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', '__proto__') AND c.relkind IN ('r', 'v', 'i') ORDER BY 1",
    );
    expect(created.map((r) => r.t)).toEqual(
      expect.arrayContaining([
        '__proto__.__proto__',
        '__proto__.constructor',
        ...PROTO_NAMES.map((t) => `public.${t}`),
        'public.valueOf_v',
      ]),
    );
    await db.query('INSERT INTO public.__proto__ VALUES (1, 2, 3, 4, 5)');
    const again = await plan(db.url, file);
    expect(again.transaction.steps.map((s) => s.summary)).toEqual([]);
    expect(again.changes).toBe(false);
    expect((await apply(db.url, file)).outcome).toBe('nothing_to_do');
    expect(await db.query('SELECT count(*)::int AS n FROM public.__proto__')).toEqual([{ n: 1 }]);
  });

  it('a live table of such a name is planned: a missing column is added, an undeclared table is named', async () => {
    await db.query(
      'CREATE TABLE public.__proto__ (id bigint, "constructor" bigint); CREATE TABLE public."toString" (id bigint)',
    );
    const file = project(
      'version: 1\ntables:\n  __proto__:\n    columns: { id: bigint, constructor: bigint, valueOf: bigint }\n',
    );
    const p = await plan(db.url, file);
    expect(p.changes).toBe(true);
    expect(p.transaction.steps.map((s) => s.summary)).toEqual(['add column "valueOf" bigint to public.__proto__']);
    expect(p.unmanaged).toContainEqual(expect.stringContaining('public."toString"'));
    // Declared with prune: true, the table with its rows stays.
    await db.query('INSERT INTO public.__proto__ VALUES (1, 2)');
    const pruned = await plan(
      db.url,
      project(
        'version: 1\nprune: true\ntables:\n  __proto__:\n    columns: { id: bigint, constructor: bigint }\n  toString:\n    columns: { id: bigint }\n',
      ),
    );
    expect([pruned.changes, pruned.hazards]).toEqual([false, []]);
  });

  it('introspect writes such names, and the project it writes plans empty', async () => {
    await db.query(
      'CREATE SCHEMA __proto__; CREATE TABLE __proto__."constructor" ("__proto__" bigint PRIMARY KEY, "valueOf" text); CREATE TABLE public."hasOwnProperty" ("toString" int)',
    );
    const dir = projectDir({}, 'cm-intro-');
    const r = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    const p = await plan(db.url, join(dir, 'citus-migrate.yaml'));
    expect(p.changes).toBe(false);
    expect(p.unmanaged).toEqual([]);
    expect((await plan('offline', join(dir, 'citus-migrate.yaml'))).transaction.steps.map((s) => s.summary)).toEqual([
      'create schema __proto__',
      'create table __proto__.constructor (2 columns)',
      'create table public."hasOwnProperty" (1 column)',
    ]);
  });
});

describe('integers past 2^53 are kept exactly, through plan, apply and the re-plan', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
  });

  const BIG = [
    'version: 1',
    'tables:',
    '  t:',
    '    partition_by: range (id)',
    '    columns: { id: bigint, d: { type: numeric, default: 9007199254740993 } }',
    '    partitions:',
    '      low: { from: MINVALUE, to: 9007199254740993 }',
    '      high: { from: 9007199254740993, to: MAXVALUE }',
    '  i:',
    '    columns:',
    '      id: { type: bigint, identity: { generated: always, start: -9007199254740995, increment: -9007199254740993, min: -9223372036854775807, max: -9007199254740993 } }',
    'sequences:',
    '  up: { start: 9223372036854775806, max: 9223372036854775807, min: 9007199254740993, cache: 9007199254740993 }',
    '  down: { increment: -9007199254740993, min: -9223372036854775807, max: -9007199254740993 }',
    '',
  ].join('\n');

  it('a partition bound, a default and sequence options beyond 2^53 apply as written and plan again empty', async () => {
    const file = join(projectDir(BIG), 'citus-migrate.yaml');
    expect((await apply(db.url, file)).outcome).toBe('applied');
    // 2^53 + 1 is a row of `high`; JavaScript's reading made the bound 2^53, and the row went there.
    await db.query('INSERT INTO public.t (id) VALUES (9007199254740992), (9007199254740993)');
    expect(await db.query('SELECT tableoid::regclass::text AS p, id::text, d::text FROM public.t ORDER BY id')).toEqual(
      [
        { p: 'low', id: '9007199254740992', d: '9007199254740993' },
        { p: 'high', id: '9007199254740993', d: '9007199254740993' },
      ],
    );
    expect(
      await db.query(
        "SELECT seqrelid::regclass::text AS s, seqstart::text, seqincrement::text, seqmin::text, seqmax::text, seqcache::text FROM pg_sequence WHERE seqrelid::regclass::text IN ('up', 'down') ORDER BY 1",
      ),
    ).toEqual([
      {
        s: 'down',
        seqstart: '-9007199254740993',
        seqincrement: '-9007199254740993',
        seqmin: '-9223372036854775807',
        seqmax: '-9007199254740993',
        seqcache: '1',
      },
      {
        s: 'up',
        seqstart: '9223372036854775806',
        seqincrement: '1',
        seqmin: '9007199254740993',
        seqmax: '9223372036854775807',
        seqcache: '9007199254740993',
      },
    ]);
    expect((await db.query<{ v: string }>("SELECT nextval('public.i_id_seq')::text AS v"))[0]!.v).toBe(
      '-9007199254740995',
    );
    const again = await plan(db.url, file);
    expect([again.changes, again.notManaged, again.transaction.steps.map((s) => s.summary)]).toEqual([false, [], []]);
  });

  it('introspect writes a live sequence past 2^53 exactly, and its manifest plans empty', async () => {
    await db.query(
      'CREATE SEQUENCE public.big MAXVALUE 9223372036854775806 START 9007199254740993; CREATE SEQUENCE public.neg INCREMENT -9007199254740993 MINVALUE -9223372036854775807 MAXVALUE -2',
    );
    const dir = projectDir({}, 'cm-intro-');
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    const text = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8');
    expect(text).toContain('max: 9223372036854775806');
    expect(text).toContain('start: 9007199254740993');
    expect(text).toContain('increment: -9007199254740993');
    const p = await plan(db.url, join(dir, 'citus-migrate.yaml'));
    expect([p.changes, p.notManaged]).toEqual([false, []]);
    // A manifest one off in the last digit is a change, not "No changes".
    const off = join(
      projectDir(text.replace('max: 9223372036854775806', 'max: 9223372036854775805')),
      'citus-migrate.yaml',
    );
    expect((await plan(db.url, off)).transaction.steps.map((s) => s.summary)).toEqual([
      'alter sequence public.big: maxvalue 9223372036854775805',
    ]);
  });
});

/** `n` views, each over the one before: v1 over v0, v2 over v1, … */
const viewChain = (n: number, schema = 'public'): string[] => [
  `CREATE VIEW ${schema}.v0 AS SELECT 1 AS a`,
  ...Array.from({ length: n - 1 }, (_, i) => `CREATE VIEW ${schema}.v${i + 1} AS SELECT a FROM ${schema}.v${i}`),
];

describe('depth of input is no crash: views 1,000 deep, deep expressions', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
  });

  it('a lower role chains 1,000 views: plan names them all, introspect writes them, its project plans empty', async () => {
    const other = await hostileRole(plainServers(), db);
    await other.run(viewChain(1000));
    // And a view and a CHECK whose expressions are 2,000 ORs deep.
    const ors = `${Array.from({ length: 2000 }, (_, i) => `(b = ${i} OR `).join('')}false${')'.repeat(2000)}`;
    await other.run([
      `CREATE TABLE public.t (b int CONSTRAINT c CHECK ${ors})`,
      `CREATE VIEW public.w AS SELECT b FROM public.t WHERE ${ors}`,
    ]);
    const empty = join(projectDir('version: 1\n'), 'citus-migrate.yaml');
    const p = await plan(db.url, empty);
    expect(p.unmanaged.filter((u) => /^(relation|view) public\.v\d+$/.test(u))).toHaveLength(1000);
    expect(p.unmanaged).toContain('table public.t');
    const dir = projectDir({}, 'cm-deep-');
    const r = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, 'wrote citus-migrate.yaml\n']);
    const again = await plan(db.url, join(dir, 'citus-migrate.yaml'));
    expect([again.changes, again.unmanaged]).toEqual([false, []]);
    // Pruned (with the hazard allowed), deepest first: all 1,000 go in one apply.
    const pruned = await apply(db.url, join(projectDir('version: 1\nprune: true\n'), 'citus-migrate.yaml'), {
      allowHazards: ['drops_data'],
    });
    expect(pruned.outcome).toBe('applied');
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace"),
    ).toEqual([{ n: 0 }]);
  });
});
