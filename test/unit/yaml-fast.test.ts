// The manifest's fast reading (js-yaml, yaml-fast.ts) gives the value the reference reading (the
// `yaml` package, yaml-exact.ts) gives, or declines the text: on every YAML file of the
// repository (bad-input cases, scenarios, templates, examples), the sqldef corpus's test files,
// what the introspect writer prints, and scalars and constructs where YAML readers are known to
// differ (YAML 1.1 booleans and octals, null keys, anchors, tags, tabs, duplicate keys).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readYamlExact } from '../../src/manifest/yaml-exact.js';
import { readYamlFast } from '../../src/manifest/yaml-fast.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const SQLDEF = join(ROOT, '../shared/corpora/sqldef-psqldef');

/** Fails when the fast reading accepts `text` with another value than the reference's. */
function agrees(text: string): 'fast' | 'declined' {
  const fast = readYamlFast(text);
  if (!fast) return 'declined';
  const exact = readYamlExact(text);
  expect(exact.syntax, `js-yaml read a text that yaml refuses:\n${text.slice(0, 300)}`).toEqual([]);
  expect(fast.value).toEqual(exact.value());
  return 'fast';
}

describe('the fast YAML reading equals the yaml package', () => {
  it('on every YAML file of the repository', () => {
    const files = execFileSync('git', ['ls-files', '*.yaml', '*.yml'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(150);
    const read = files.map((f) => agrees(readFileSync(join(ROOT, f), 'utf8')));
    // Most are read fast: the check is not vacuous.
    expect(read.filter((r) => r === 'fast').length).toBeGreaterThan(files.length / 2);
  });

  it.skipIf(!existsSync(SQLDEF))("on the sqldef corpus's test files (SQL in block scalars)", () => {
    const files = readdirSync(SQLDEF).filter((f) => f.endsWith('.yml'));
    for (const f of files) agrees(readFileSync(join(SQLDEF, f), 'utf8'));
  });

  it('on what the introspect writer prints (yaml.stringify) of awkward strings', () => {
    const awkward = [
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      '~',
      'null',
      'NULL',
      '',
      ' ',
      'true',
      'False',
      '0o17',
      '0x1F',
      '017',
      '1_000',
      '1e3',
      '.5',
      '+1',
      '-0',
      '.inf',
      '-.Inf',
      '.nan',
      '12:30',
      '2024-01-01',
      '0b101',
      '1.0',
      '1.',
      "it's",
      'a "q"',
      'a: b',
      '# not a comment',
      'x #y',
      '- item',
      '[a]',
      '{a: 1}',
      '*alias',
      '&anchor',
      '!tag',
      '%dir',
      '@at',
      '`bt`',
      '|',
      '>',
      'line\nbreak',
      'trailing\n',
      '\ttab',
      'ünïcødé',
      'emoji 🐘',
      '\\back',
      'SELECT * FROM t WHERE a != 1',
      "CHECK (x <> '')",
      "nextval('s'::regclass)",
      "now() AT TIME ZONE 'UTC'",
    ];
    const doc = {
      version: 1,
      tables: Object.fromEntries(awkward.map((s, i) => [s === '' ? 'empty' : s, { default: s, n: i, list: [s] }])),
      routines: { f: { body: 'BEGIN\n  RETURN 1;\nEND;\n', comment: '  indented\n\n blank lines  \n' } },
    };
    agrees(stringify(doc));
    agrees(stringify(doc, { lineWidth: 0 }));
    agrees(JSON.stringify(doc, null, 2));
  });

  it.each([
    // YAML 1.2 core scalars: numbers, booleans, nulls as `yaml` resolves them
    'a: 1\nb: -2\nc: +3\nd: 0o17\ne: 0x1F\nf: 017\ng: 1_000\nh: 0b11\n',
    'a: 1.5\nb: .5\nc: 1.\nd: 1e3\ne: -1.5E-3\nf: .inf\ng: -.Inf\nh: +.INF\ni: .nan\nj: 12:30:00\n',
    'a: true\nb: True\nc: TRUE\nd: yes\ne: on\nf: off\ng: y\nh: tRUE\n',
    'a: null\nb: ~\nc:\nd: Null\ne: NULL\nf: nULL\n',
    'a: 2024-01-01\nb: 2024-01-01T00:00:00Z\n',
    'a: 99999999999999999999\nb: 9007199254740993\n',
    // keys
    '1: a\ntrue: b\n1.5: c\n"null": d\n',
    'null: a\n',
    '~: a\n',
    ': a\n',
    '{null: a}\n',
    '? complex\n: value\n',
    '"a": 1\n\'b\': 2\n',
    // strings and block scalars
    "a: \"esc \\x41 \\u00e9 \\t \\\\ \\\"\"\nb: 'it''s'\nc: plain # comment\nd: a#b\n",
    's: |\n  line 1\n\n  line 3\nt: >-\n  folded\n  text\n\n  para\nu: |+\n  keep\n\nv: |2\n    indented\n',
    'list:\n- a\n- - b\n  - c\n- {x: 1, y: [2, 3]}\n',
    'a: [1, "two", {three: 3}]\nb: {}\nc: []\n',
    'multi: this is\n  a folded\n  plain scalar\n',
    // the reference refuses or reads differently: declined or an error both readers see
    'a: 1\na: 2\n',
    'a: 1\n"a": 2\n',
    '1: a\n"1": b\n',
    'a: &x {b: 1}\nc: *x\n',
    'a: !!str 1\nb: !!int "2"\n',
    'a: !custom x\n',
    '<<: {a: 1}\nb: 2\n',
    '%YAML 1.2\n---\na: 1\n',
    'a:\n\tb: 1\n',
    'a: 1\n---\nb: 2\n',
    'a: b: c\n',
    'a: [1, 2\n',
    'a: "unterminated\n',
    '- a\nb: 1\n',
    '',
    '# only a comment\n',
    'version: 1\n',
    '{"version": 1, "tables": {"t": {"columns": {"id": "bigint"}}}}',
  ])('on %j', (text) => {
    agrees(text);
  });

  it('declines texts with anchors, aliases, tags, tabs, complex keys, directives, merge and null keys', () => {
    for (const text of [
      'a: &x 1\n',
      'a: *x\n',
      'a: !!str 1\n',
      'a:\n\tb: 1\n',
      '? a\n: b\n',
      '%YAML 1.2\n---\na: 1\n',
      '<<: {}\n',
      'null: 1\n',
      '~: 1\n',
      ': 1\n',
      '{~: 1}\n',
    ])
      expect(readYamlFast(text), text).toBeUndefined();
    expect(readYamlFast('version: 1\ntables: {t: {columns: {id: bigint}}}\n')).toEqual({
      value: { version: 1, tables: { t: { columns: { id: 'bigint' } } } },
    });
  });
});
