// DEFERRABLE / INITIALLY DEFERRED keys and foreign keys, and NOT VALID foreign keys (issue #23):
// read from the manifest, rendered, compared, replaced when only the deferral changes, and
// written back by introspect.
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/introspect/to-model.js';
import { liveToManifest } from '../../src/introspect/to-manifest.js';
import type { ClusterModel, ForeignKey, Key, Table } from '../../src/model/types.js';
import { keySteps } from '../../src/plan/diff/keys.js';
import { foreignKeySteps as allForeignKeySteps } from '../../src/plan/diff/foreign-keys.js';
import type { Step } from '../../src/plan/steps/steps.js';
import type { DiffProblem } from '../../src/plan/diff/diff.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { load } from '../support/manifest.js';
import { localTable, modelOf } from '../support/model.js';

/** The foreign-key steps of one declared table. */
function foreignKeySteps(t: Table, desired: ClusterModel, actual: ClusterModel): Step[] {
  const withT = { ...desired, tables: { ...desired.tables, [t.id]: t } };
  const r = allForeignKeySteps(withT, actual, (id) => id === t.id, [], []);
  return [...r.drops, ...r.adds];
}

const table = (name: string, opts: { pk?: Key; unique?: Key[]; fks?: ForeignKey[] } = {}): Table =>
  localTable(name, { ...opts, columns: ['id', 'a'] });
const model = modelOf;
const FK: ForeignKey = { name: 'c_a_fkey', columns: ['a'], refTable: 'public.p', refColumns: ['id'] };

describe('deferrable keys in the diff', () => {
  it('a key whose deferral changes is dropped and added again under its name', () => {
    const problems: DiffProblem[] = [];
    const want = table('p', { pk: { columns: ['id'], deferrable: true, initiallyDeferred: true } });
    const have = table('p', { pk: { name: 'p_pkey', columns: ['id'] } });
    const sql = keySteps(want, have, model(have), problems).flatMap(renderSql);
    expect(problems).toEqual([]);
    expect(sql).toEqual([
      'ALTER TABLE public.p DROP CONSTRAINT p_pkey',
      'ALTER TABLE public.p ADD CONSTRAINT p_pkey PRIMARY KEY (id) DEFERRABLE INITIALLY DEFERRED',
    ]);
    expect(keySteps(have, { ...want, primaryKey: { ...want.primaryKey!, name: 'p_pkey' } }, model(), problems)).toEqual(
      [expect.objectContaining({ kind: 'replace_constraint', name: 'p_pkey' })],
    );
  });

  it('the same deferral plans nothing; a key foreign keys hold on to is a problem, not a failed apply', () => {
    const problems: DiffProblem[] = [];
    const u: Key = { name: 'p_a_key', columns: ['a'], deferrable: true };
    expect(
      keySteps(
        table('p', { unique: [{ columns: ['a'], deferrable: true }] }),
        table('p', { unique: [u] }),
        model(),
        problems,
      ),
    ).toEqual([]);
    const have = table('p', { unique: [{ name: 'p_a_key', columns: ['a'] }] });
    const child = table('c', { fks: [{ ...FK, refColumns: ['a'] }] });
    expect(keySteps(table('p', { unique: [u] }), have, model(have, child), problems)).toEqual([]);
    expect(problems.map((p) => p.code)).toEqual(['key_deferral_change_referenced']);
    expect(problems[0]!.message).toContain('public.c.c_a_fkey');
  });

  it('a foreign key whose deferral changes is replaced; NOT VALID is declared, never validated', () => {
    const p = table('p', { pk: { name: 'p_pkey', columns: ['id'] } });
    const want = table('c', { fks: [{ ...FK, deferrable: true }] });
    const sql = foreignKeySteps(want, model(p, want), model(p, table('c', { fks: [FK] }))).flatMap(renderSql);
    expect(sql).toEqual([
      'ALTER TABLE public.c DROP CONSTRAINT c_a_fkey',
      'ALTER TABLE public.c ADD CONSTRAINT c_a_fkey FOREIGN KEY (a) REFERENCES public.p (id) DEFERRABLE',
    ]);
    const notValid = table('c', { fks: [{ ...FK, notValid: true }] });
    // Declared not_valid: added NOT VALID; one the cluster holds NOT VALID is left so; a validated one too.
    expect(foreignKeySteps(notValid, model(p, notValid), model(p)).flatMap(renderSql)).toEqual([
      'ALTER TABLE public.c ADD CONSTRAINT c_a_fkey FOREIGN KEY (a) REFERENCES public.p (id) NOT VALID',
    ]);
    expect(foreignKeySteps(notValid, model(p, notValid), model(p, notValid))).toEqual([]);
    expect(foreignKeySteps(notValid, model(p, notValid), model(p, table('c', { fks: [FK] })))).toEqual([]);
    // Not declared not_valid: the cluster's NOT VALID key is validated.
    expect(foreignKeySteps(table('c', { fks: [FK] }), model(p), model(p, notValid)).flatMap(renderSql)).toEqual([
      'ALTER TABLE public.c VALIDATE CONSTRAINT c_a_fkey',
    ]);
  });
});

describe('deferrable keys and NOT VALID foreign keys in the manifest', () => {
  const manifest = `version: 1
tables:
  p:
    columns: { id: bigint, a: int }
    primary_key: { columns: [id], deferrable: true }
    unique: [{ columns: [a], initially_deferred: true }]
  q:
    columns: { id: bigint }
    primary_key: [id]
  c:
    columns: { id: bigint, p_id: bigint }
    foreign_keys:
      - { columns: [p_id], references: q, ref_columns: [id], initially_deferred: true, not_valid: true }
`;

  it('reads them into the model (INITIALLY DEFERRED implies DEFERRABLE)', async () => {
    const m = (await load(manifest)).desired;
    expect(m.tables['public.p']!.primaryKey).toEqual({ columns: ['id'], deferrable: true });
    expect(m.tables['public.p']!.unique).toEqual([{ columns: ['a'], deferrable: true, initiallyDeferred: true }]);
    expect(m.tables['public.c']!.foreignKeys[0]).toMatchObject({
      deferrable: true,
      initiallyDeferred: true,
      notValid: true,
    });
  });

  it('creates them so', async () => {
    const sql = planOffline(await load(manifest), 'm').transaction.steps.flatMap((s) => s.sql);
    expect(sql.find((s) => s.startsWith('CREATE TABLE public.p'))).toContain(
      'PRIMARY KEY (id) DEFERRABLE,\n    UNIQUE (a) DEFERRABLE INITIALLY DEFERRED\n)',
    );
    expect(sql).toContain(
      'ALTER TABLE public.c ADD FOREIGN KEY (p_id) REFERENCES public.q (id) DEFERRABLE INITIALLY DEFERRED NOT VALID',
    );
  });

  it('introspect writes them back', () => {
    const p = table('p', {
      pk: { name: 'p_pkey', columns: ['id'], deferrable: true },
      unique: [{ name: 'p_a_key', columns: ['a'], deferrable: true, initiallyDeferred: true }],
    });
    const c = table('c', { fks: [{ ...FK, deferrable: true, initiallyDeferred: true, notValid: true }] });
    const live = {
      model: model(p, c),
      citus: false,
      fingerprint: '',
      objects: {},
      doc: { server: { database: 'd', version: '16.0', versionNum: 160000, citus: null } },
    } as unknown as LiveState;
    const text = liveToManifest(live);
    expect(text).toContain('primary_key:\n      columns:\n        - id\n      deferrable: true\n');
    expect(text).toContain('- columns:\n          - a\n        deferrable: true\n        initially_deferred: true\n');
    expect(text).toContain('deferrable: true\n        initially_deferred: true\n        not_valid: true\n');
  });
});
