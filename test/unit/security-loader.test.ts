// Inputs the loader got wrong (the security issue's loader part), without a database: the
// library's options, names that are Object.prototype's members, integers past 2^53, deep nesting.
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apply,
  bench,
  CmError,
  formatProblem,
  history,
  historyEntry,
  introspect,
  loadManifestText,
  ManifestError,
  plan,
} from '../../src/index.js';
import { diff } from '../../src/plan/diff/diff.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { readYaml } from '../../src/manifest/yaml-read.js';
import { InexactNumber } from '../../src/manifest/yaml-numbers.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const URL = 'postgresql://nobody@127.0.0.1:1/none';

/** The bad_options error a call rejects with, as [message, meta.problems]. */
async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CmError);
  expect((e as CmError).code).toBe('bad_options');
  expect((e as CmError).exitCode).toBe(64);
  return (e as CmError).message;
}

describe("the library's options are checked before anything runs", () => {
  it('names the function, the option path and what is wrong', async () => {
    expect(await refusal(apply(URL, 'm.yaml', { allowHazards: ['drops_data', 'drop_data'] } as never))).toBe(
      'apply(): options.allowHazards[1]: Invalid option: expected one of "copies_data"|"rewrites_table"|"drops_data"|"breaks_cached_plans"|"non_transactional"|"fails_concurrent_writes"|"security_definer"|"creates_extension"|"public_privileges"|"weakens_security"|"widens_access"|"runs_foreign_code"',
    );
    expect(await refusal(apply(URL, 'm.yaml', { allowHazards: 'drops_data' } as never))).toBe(
      'apply(): options.allowHazards: expected an array or a Set of hazards',
    );
    expect(await refusal(apply(URL, 'm.yaml', { lockTimeoutMs: '5s', rehaerse: true } as never))).toBe(
      'apply(): options.lockTimeoutMs: Invalid input: expected number, received string; options: unknown option "rehaerse"',
    );
    // An events object of the callbacks apply took before ApplyEvent is refused, not ignored.
    expect(await refusal(apply(URL, 'm.yaml', {}, { stepStarted: () => undefined } as never))).toBe(
      'apply(): onEvent: expected a function',
    );
    expect(await refusal(bench(URL, 'm.yaml', {}, { tick: () => undefined } as never))).toBe(
      'bench(): onEvent: expected a function',
    );
    expect(await refusal(bench(URL, 'm.yaml', { tickMs: 0 }))).toBe(
      'bench(): options.tickMs: Too small: expected number to be >=1',
    );
    expect(await refusal(plan(URL, 'm.yaml', { online: 'yes' } as never))).toBe(
      'plan(): options.online: Invalid input: expected boolean, received string',
    );
    expect(await refusal(plan(42 as never, 'm.yaml'))).toBe(
      'plan(): target: expected a database URL or a ConnectionTarget (connectionTarget() builds one)',
    );
    expect(await refusal(bench(URL, 'm.yaml', { clients: 0 }))).toBe(
      'bench(): options.clients: Too small: expected number to be >=1',
    );
    expect(await refusal(introspect(URL, { file: true } as never))).toBe(
      'introspect(): options: unknown option "file"',
    );
    expect(await refusal(history(URL, 0))).toBe('history(): limit: Too small: expected number to be >=1');
    expect(await refusal(historyEntry(URL, 1.5))).toBe(
      'historyEntry(): id: Invalid input: expected int, received number',
    );
  });
});

describe('the CLI never writes through a link that leaves the output folder', () => {
  /** A project folder holding `files`, and a folder outside it that must stay empty. */
  function setup(files: Record<string, string> = {}): { dir: string; outside: string } {
    const dir = projectDir({ 'citus-migrate.yaml': BENCH_MANIFEST, ...files }, 'cm-sw-');
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    return { dir, outside };
  }
  const BENCH_MANIFEST =
    'version: 1\ntables:\n  t:\n    columns: { id: bigint }\nbench:\n  workloads:\n    w: { sql: "SELECT 1" }\n';

  it.each([
    ['plan -o', ['plan', '--offline', '-o', 'plan.sql'], 'plan.sql'],
    ['hammerdb --manifest -o', ['hammerdb', '--manifest', '-o', 'plan.sql'], 'plan.sql'],
    ['bench --emit-pgbench (run.sh)', ['bench', '--emit-pgbench', 'pgb'], 'pgb/run.sh'],
    ['bench --emit-pgbench (a script)', ['bench', '--emit-pgbench', 'pgb'], 'pgb/w.sql'],
    ['init (its manifest)', ['init', 'new'], 'new/citus-migrate.yaml'],
  ])('%s: a dangling link as the file is refused, nothing written', async (_what, args, linkAt) => {
    const { dir, outside } = setup();
    mkdirSync(dirname(join(dir, linkAt)), { recursive: true });
    symlinkSync(join(outside, 'planted'), join(dir, linkAt));
    const before = readdirSync(dirname(join(dir, linkAt)));
    const r = await cli(args, { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /refusing to write .*: it is a symbolic link \(the tool never writes through one\); nothing was written/,
    );
    expect(readdirSync(outside)).toEqual([]);
    // Nothing else of the command's output was written either.
    expect(readdirSync(dirname(join(dir, linkAt)))).toEqual(before);
  });

  it.each([
    ['bench --emit-pgbench', ['bench', '--emit-pgbench', 'pgb/out'], 'pgb'],
    ['plan -o', ['plan', '--offline', '-o', 'pgb/plan.sql'], 'pgb'],
    ['init', ['init', 'pgb/new'], 'pgb'],
  ])('%s: a folder on the way that links outside is refused, nothing written', async (_what, args, link) => {
    const { dir, outside } = setup();
    symlinkSync(outside, join(dir, link));
    const r = await cli(args, { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`is a symbolic link that leads outside ${dir}`);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a link that stays inside the folder is followed; an existing file is overwritten where the command always did', async () => {
    const { dir } = setup({ 'real/.keep': '' });
    symlinkSync(join(dir, 'real'), join(dir, 'pgb'));
    expect((await cli(['bench', '--emit-pgbench', 'pgb'], { cwd: dir })).code).toBe(0);
    expect(readdirSync(join(dir, 'real')).sort()).toEqual(['.keep', 'run.sh', 'w.sql']);
    expect((await cli(['plan', '--offline', '-o', 'plan.sql'], { cwd: dir })).code).toBe(0);
    expect((await cli(['plan', '--offline', '-o', 'plan.sql'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, 'plan.sql'), 'utf8')).toContain('create table public.t');
  });

  it('a hard link to a file elsewhere is not written through', async () => {
    const { dir, outside } = setup();
    writeFileSync(join(outside, 'victim'), 'keep me');
    linkSync(join(outside, 'victim'), join(dir, 'plan.sql'));
    const r = await cli(['plan', '--offline', '-o', 'plan.sql'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it is a hard link to another file');
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('keep me');
  });
});

describe("names that are Object.prototype's members load and diff like any other", () => {
  const load = (text: string) => loadManifestText(text, 'm.yaml', tmpdir());
  const NAMES_MANIFEST = [
    'version: 1',
    'colocation:',
    '  __proto__: { shard_count: 4 }',
    '  constructor: {}',
    'schemas:',
    '  toString: {}',
    'tables:',
    '  valueOf.__proto__:',
    '    columns:',
    '      __proto__: { type: bigint, default: 1 }',
    '      toString: text',
    '    primary_key: [__proto__]',
    '    indexes: [{ columns: [toString], name: __proto__ }]',
    '  __proto__:',
    '    distributed_by: hasOwnProperty',
    '    colocation: __proto__',
    '    columns: { hasOwnProperty: bigint, constructor: int }',
    '  constructor:',
    '    distributed_by: id',
    '    colocation: __proto__',
    '    columns: { id: bigint }',
    '  p:',
    '    partition_by: list (x)',
    '    columns: { x: int }',
    '    partitions:',
    '      valueOf: { in: [1] }',
    '      constructor_p: { in: [2] }',
    '  toString.t:',
    '    distributed_by: id',
    '    colocation: constructor',
    '    columns: { id: bigint }',
    'sequences:',
    '  toString.__proto__: { start: 5 }',
    '',
  ].join('\n');

  it('keeps every table, column, group and schema so named', async () => {
    const m = await load(NAMES_MANIFEST);
    expect(Object.keys(m.desired.tables)).toEqual([
      '"valueOf".__proto__',
      'public.__proto__',
      'public.constructor',
      'public.p',
      '"toString".t',
    ]);
    expect(m.desired.tables['"valueOf".__proto__']!.columns!.map((c) => c.name)).toEqual(['__proto__', 'toString']);
    expect(m.desired.tables['public.__proto__']!.columns!.map((c) => c.name)).toEqual([
      'hasOwnProperty',
      'constructor',
    ]);
    expect(Object.values(m.desired.groups).map((g) => [g.name, g.shardCount, g.members])).toEqual([
      ['__proto__', 4, ['public.__proto__', 'public.constructor']],
      ['constructor', 32, ['"toString".t']],
    ]);
    expect(m.desired.schemas).toEqual(expect.arrayContaining(['toString', 'valueOf']));
    expect(Object.keys(m.desired.sequences)).toEqual(['"toString".__proto__']);
    expect(planOffline(m).transaction.steps.map((s) => s.summary)).toEqual(
      expect.arrayContaining([
        'distribute public.__proto__ by "hasOwnProperty": anchor of colocation group "__proto__", 4 shards',
        'distribute public.constructor by id, colocated with public.__proto__ (group "__proto__")',
        'create index on "valueOf".__proto__ ("toString")',
      ]),
    );
  });

  it('diffs a declared table against the same table in the cluster as equal, and prunes nothing', async () => {
    const m = await load(NAMES_MANIFEST);
    const same = diff(m.desired, m.desired, { prune: true });
    expect([same.steps, same.unmanaged]).toEqual([[], []]);
    const fewer = await load('version: 1\ntables:\n  __proto__:\n    columns: { hasOwnProperty: bigint }\n');
    const r = diff(fewer.desired, m.desired, { prune: false });
    expect(r.unmanaged).toEqual(
      expect.arrayContaining([
        'table "valueOf".__proto__',
        'table public.constructor',
        'column public.__proto__.constructor',
      ]),
    );
  });

  it('locates a problem under a __proto__ key, and refuses the name that stands in for it', async () => {
    const e = await load('version: 1\ntables:\n  __proto__:\n    columns:\n      constructor: 5\n').catch(
      (x: unknown) => x,
    );
    expect((e as ManifestError).problems.map(formatProblem)).toEqual([
      'error: m.yaml:5:20: tables.__proto__.columns.constructor: expected a type name such as integer, or { type, not_null, default }, got number 5',
    ]);
    const reserved = await load('version: 1\ntables:\n  "__proto__\\uE000": {}\n').catch((x: unknown) => x);
    expect((reserved as ManifestError).problems.map(formatProblem)).toEqual([
      'error: m.yaml:3:3: tables["__proto__\uE000"]: this name is reserved',
    ]);
  });
});

describe('numbers past what JavaScript holds exactly', () => {
  const load = (text: string) => loadManifestText(text, 'm.yaml', tmpdir());
  const TEXT =
    'a: 9007199254740993\nb: -9223372036854775808\nc: 0x20000000000001\nd: 0.30000000000000001\ne: 1e400\nf: 1.5\ng: 1e3\nh: -0.0\n';

  it('reads an integer past 2^53 as a bigint and an inexact float as such', () => {
    expect(readYaml(TEXT).value()).toEqual({
      a: 9007199254740993n,
      b: -9223372036854775808n,
      c: 9007199254740993n,
      d: new InexactNumber('0.30000000000000001'),
      e: new InexactNumber('1e400'),
      f: 1.5,
      g: 1000,
      h: -0,
    });
  });

  it('plans a bound, a default and sequence options as written', async () => {
    const m = await load(
      [
        'version: 1',
        'tables:',
        '  t:',
        '    partition_by: list (id)',
        '    columns: { id: bigint, d: { type: numeric, default: 9007199254740993 } }',
        '    partitions: { p: { in: [9007199254740993, -9223372036854775808] } }',
        'sequences:',
        '  s: { start: 9223372036854775806, min: -9223372036854775807, increment: -9007199254740993, cache: 9007199254740993 }',
        '',
      ].join('\n'),
    );
    expect(planOffline(m).transaction.steps.flatMap((s) => s.sql)).toEqual([
      'CREATE SEQUENCE public.s AS bigint INCREMENT BY -9007199254740993 MINVALUE -9223372036854775807 START WITH 9223372036854775806 CACHE 9007199254740993',
      'CREATE TABLE public.t (\n    id bigint,\n    d numeric DEFAULT 9007199254740993\n) PARTITION BY LIST (id)',
      "CREATE TABLE public.p PARTITION OF public.t FOR VALUES IN ('9007199254740993', '-9223372036854775808')",
    ]);
  });

  it('refuses, located, what it cannot keep exactly', async () => {
    const e = await load(
      [
        'version: 1',
        'defaults: { shard_count: 9007199254740993 }',
        'tables:',
        '  t:',
        '    columns: { d: { type: numeric, default: 0.30000000000000001 } }',
        'sequences:',
        '  s: { max: 9223372036854775808, start: 9007199254740993.0 }',
        '',
      ].join('\n'),
    ).catch((x: unknown) => x);
    expect((e as ManifestError).problems.map(formatProblem)).toEqual([
      'error: m.yaml:2:26: defaults.shard_count: expected number, got the integer 9007199254740993, past what this setting holds exactly (±9007199254740991)',
      'error: m.yaml:5:45: tables.t.columns.d.default: expected a type name such as integer, or { type, not_null, default }, got the number 0.30000000000000001, which is not held exactly (write it as a string, "0.30000000000000001", where the value is SQL)',
      'error: m.yaml:7:41: sequences.s.start: got the number 9007199254740993.0, which is not held exactly (write it as a string, "9007199254740993.0", where the value is SQL), which matches none of the accepted forms',
    ]);
    const range = await load('version: 1\nsequences:\n  s: { max: 9223372036854775808 }\n').catch((x: unknown) => x);
    expect((range as ManifestError).problems.map(formatProblem)).toEqual([
      'error: m.yaml:3:13: sequences.s.max: max 9223372036854775808 is out of range for bigint (-9223372036854775808..9223372036854775807)',
    ]);
  });
});

describe('depth of input is no crash', () => {
  /** `(b = 0 OR (b = 1 OR (… )))`, `n` deep. */
  const nestedOrs = (n: number): string =>
    `${Array.from({ length: n }, (_, i) => `(b = ${i} OR `).join('')}false${')'.repeat(n)}`;
  const views = (n: number): string =>
    [
      'CREATE VIEW public.v0 AS SELECT 1 AS a;',
      ...Array.from({ length: n - 1 }, (_, i) => `CREATE VIEW public.v${i + 1} AS SELECT a FROM public.v${i};`),
    ].join('\n');

  it('a CHECK of 2,000 nested ORs and a default 2,000 parentheses deep: validate and plan --offline', async () => {
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1\ntables:\n  t:\n    columns:\n      b: int\n      d: { type: int, default: "${'('.repeat(2000)}1${')'.repeat(2000)}" }\nsql: [checks.sql]\n`,
      'checks.sql': `ALTER TABLE public.t ADD CONSTRAINT c CHECK ${nestedOrs(2000)};\nCREATE VIEW public.w AS SELECT b FROM public.t WHERE ${nestedOrs(2000)};\n`,
    });
    expect((await cli(['validate'], { cwd: dir })).code).toBe(0);
    const r = await cli(['plan', '--offline'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('create check constraint public.t.c');
    expect(r.stdout).toContain('create view public.w');
  });

  it('a sql: file of 1,000 views, each over the one before: validate and plan --offline, in order', async () => {
    const dir = projectDir({ 'citus-migrate.yaml': 'version: 1\nsql: [views.sql]\n', 'views.sql': views(1000) });
    expect((await cli(['validate'], { cwd: dir })).code).toBe(0);
    const m = await loadManifestText('version: 1\nsql: [views.sql]\n', 'm.yaml', dir);
    const summaries = planOffline(m).transaction.steps.map((s) => s.summary);
    expect(summaries).toEqual(Array.from({ length: 1000 }, (_, i) => `create view public.v${i}`));
  });

  it('YAML nested thousands deep is a located problem, not a crash', async () => {
    const dir = projectDir(`version: 1\ntables: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`);
    const r = await cli(['validate'], { cwd: dir });
    expect(r.code).toBe(1); // as any YAML syntax error
    expect(r.stderr).toMatch(
      /^error: citus-migrate\.yaml:2:\d+: mappings or lists nest too deeply here to be read \(a manifest needs a few levels\)\n/,
    );
  });
});
