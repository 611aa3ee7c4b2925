// Names of primary keys and unique constraints: declared in the manifest, compared when declared,
// renamed through their index, written by introspect only when not PostgreSQL's default.
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/introspect/to-model.js';
import { liveToManifest } from '../../src/introspect/to-manifest.js';
import { defaultKeyName } from '../../src/model/key-names.js';
import type { ClusterModel, Key, Table } from '../../src/model/types.js';
import { keySteps } from '../../src/plan/diff/keys.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { load } from '../support/manifest.js';
import { localTable, modelOf } from '../support/model.js';

const table = (primaryKey: Key | undefined, unique: Key[]): Table =>
  localTable('data', { notNull: (c) => c === 'id', ...(primaryKey ? { pk: primaryKey } : {}), unique });

const sqlOf = (t: Table, a: Table): string[] => {
  const problems: unknown[] = [];
  const sql = keySteps(t, a, modelOf(a), problems as never).flatMap((s) => renderSql(s));
  expect(problems).toEqual([]);
  return sql;
};

const ACTUAL = table({ name: 'data_pkey', columns: ['id'] }, [{ name: 'data_a_b_key', columns: ['a', 'b'] }]);

describe('key names in the diff', () => {
  it('a name not declared is not compared', () => {
    expect(sqlOf(table({ columns: ['id'] }, [{ columns: ['b', 'a'] }]), ACTUAL)).toEqual([]);
  });

  it('a declared name that differs renames the key through its index', () => {
    const t = table({ name: 'data_pk', columns: ['id'] }, [{ name: 'data_ab', columns: ['a', 'b'] }]);
    expect(sqlOf(t, ACTUAL)).toEqual([
      'ALTER INDEX public.data_pkey RENAME TO data_pk',
      'ALTER INDEX public.data_a_b_key RENAME TO data_ab',
    ]);
    expect(sqlOf(t, table({ name: 'data_pk', columns: ['id'] }, [{ name: 'data_ab', columns: ['a', 'b'] }]))).toEqual(
      [],
    );
  });

  it('a missing key is added under its declared name', () => {
    const t = table({ name: 'data_pk', columns: ['id'] }, [{ name: 'data_ab', columns: ['a', 'b'] }]);
    expect(sqlOf(t, table(undefined, []))).toEqual([
      'ALTER TABLE public.data ADD CONSTRAINT data_pk PRIMARY KEY (id)',
      'ALTER TABLE public.data ADD CONSTRAINT data_ab UNIQUE (a, b)',
    ]);
  });
});

describe('changed keys in the diff', () => {
  it('a primary key on other columns is dropped and added again', () => {
    expect(sqlOf(table({ columns: ['id', 'a'] }, [{ columns: ['a', 'b'] }]), ACTUAL)).toEqual([
      'ALTER TABLE public.data DROP CONSTRAINT data_pkey',
      'ALTER TABLE public.data ADD PRIMARY KEY (id, a)',
    ]);
  });

  it('a unique constraint on other columns under the same name is dropped and added again', () => {
    const t = table({ columns: ['id'] }, [{ name: 'data_a_b_key', columns: ['a'] }]);
    expect(sqlOf(t, ACTUAL)).toEqual([
      'ALTER TABLE public.data DROP CONSTRAINT data_a_b_key',
      'ALTER TABLE public.data ADD CONSTRAINT data_a_b_key UNIQUE (a)',
    ]);
  });

  it('a unique constraint under a new name leaves the old one (named unmanaged)', () => {
    expect(sqlOf(table({ columns: ['id'] }, [{ columns: ['a'] }]), ACTUAL)).toEqual([
      'ALTER TABLE public.data ADD UNIQUE (a)',
    ]);
  });
});

describe('key names in the manifest', () => {
  const manifest = `version: 1
tables:
  data:
    local: true
    columns: { id: bigint, a: int, b: int, c: int }
    primary_key: { name: data_pk, columns: [id] }
    unique: [[a], { name: data_bc, columns: [b, c] }, { columns: [c] }]
`;

  it('reads the short and the named forms into the model', async () => {
    const t = (await load(manifest)).desired.tables['public.data']!;
    expect(t.primaryKey).toEqual({ name: 'data_pk', columns: ['id'] });
    expect(t.unique).toEqual([{ columns: ['a'] }, { name: 'data_bc', columns: ['b', 'c'] }, { columns: ['c'] }]);
    expect(t.columns!.find((c) => c.name === 'id')!.notNull).toBe(true);
  });

  it('creates the table with the declared names', async () => {
    const sql = planOffline(await load(manifest), 'm').transaction.steps.flatMap((s) => s.sql);
    expect(sql.find((s) => s.startsWith('CREATE TABLE'))).toBe(
      'CREATE TABLE public.data (\n    id bigint NOT NULL,\n    a integer,\n    b integer,\n    c integer,\n    CONSTRAINT data_pk PRIMARY KEY (id),\n    UNIQUE (a),\n    CONSTRAINT data_bc UNIQUE (b, c),\n    UNIQUE (c)\n)',
    );
  });
});

describe('default key names', () => {
  it("are PostgreSQL's, cut to 63 bytes the way makeObjectName cuts them", () => {
    expect(defaultKeyName('data', 'primary', { columns: ['id'] })).toBe('data_pkey');
    expect(defaultKeyName('data', 'unique', { columns: ['a', 'b'] })).toBe('data_a_b_key');
    expect(defaultKeyName('t'.repeat(70), 'primary', { columns: ['id'] })).toBe(`${'t'.repeat(58)}_pkey`);
    expect(defaultKeyName('t'.repeat(40), 'unique', { columns: ['c'.repeat(40)] })).toBe(
      `${'t'.repeat(29)}_${'c'.repeat(29)}_key`,
    );
    const [b, c] = [`a${'b'.repeat(30)}`, `a${'c'.repeat(30)}`];
    expect(defaultKeyName('u'.repeat(20), 'unique', { columns: [b, c] })).toBe(`${'u'.repeat(20)}_${b}_accccc_key`);
    expect(defaultKeyName('täble', 'unique', { columns: ['çol'] })).toBe('täble_çol_key');
  });

  it('introspect writes a key name only when it is not the default', () => {
    const data = table({ name: 'data_pk', columns: ['id'] }, [
      { name: 'data_a_b_key', columns: ['a', 'b'] },
      { name: 'data_uq', columns: ['b'] },
    ]);
    const model: ClusterModel = {
      schemas: ['public'],
      tables: { 'public.data': data },
      groups: {},
      sequences: {},
      routines: {},
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
    expect(text).toContain('primary_key:\n      name: data_pk\n      columns:\n        - id\n');
    expect(text).toMatch(/unique:\n\s+- - a\n\s+- b\n\s+- name: data_uq\n\s+columns:\n\s+- b\n/);
  });
});
