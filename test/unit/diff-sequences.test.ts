// Sequences in full (issue #23): options compared as PostgreSQL fills them in, ALTER SEQUENCE with
// only what differs, OWNED BY declared and planned, a serial's own sequence compared when the
// manifest does not declare it, serial <-> bigserial; a foreign key's name compared and renamed.
import { describe, expect, it } from 'vitest';
import type { LiveState } from '../../src/introspect/to-model.js';
import { liveToManifest } from '../../src/introspect/to-manifest.js';
import { effectiveBounds, normalSequence } from '../../src/model/sequence-bounds.js';
import type { ClusterModel, ForeignKey, Sequence, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { load, problems } from '../support/manifest.js';

const seq = (name: string, o: Partial<Sequence> = {}): Sequence => ({
  id: `app.${name}`,
  qname: { schema: 'app', name },
  type: 'bigint',
  cache: '1',
  cycle: false,
  ...o,
});
const table = (name: string, o: Partial<Table> = {}): Table => ({
  id: `app.${name}`,
  qname: { schema: 'app', name },
  columns: [
    { name: 'id', type: { base: 'integer', sql: 'integer', serial: false }, notNull: true },
    { name: 'n', type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: false },
  ],
  primaryKey: { name: `${name}_pkey`, columns: ['id'] },
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
  ...o,
});
const model = (tables: Table[], sequences: Sequence[] = []): ClusterModel => ({
  schemas: ['app', 'public'],
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: Object.fromEntries(sequences.map((s) => [s.id, s])),
  routines: {},
  objects: {},
});
const sqlOf = (desired: ClusterModel, actual: ClusterModel): string[] => {
  const r = diff(desired, actual, { now: new Date(0) });
  expect(r.problems).toEqual([]);
  return r.steps.flatMap(renderSql);
};

describe('sequence options', () => {
  it('leaves out what PostgreSQL gives by default, for the type and direction', () => {
    expect(normalSequence(seq('s', { increment: '1', min: '1', max: '9007199254740991', start: '1' }))).toEqual(
      seq('s', { max: '9007199254740991' }),
    );
    expect(normalSequence(seq('s', { type: 'integer', min: '1', max: '2147483647', start: '1' }))).toEqual(
      seq('s', { type: 'integer' }),
    );
    // Descending: from -1 down to the type's minimum, starting at -1.
    expect(
      normalSequence(seq('s', { type: 'smallint', increment: '-1', min: '-32768', max: '-1', start: '-1' })),
    ).toEqual(seq('s', { type: 'smallint', increment: '-1' }));
    // A start at a declared MINVALUE is the default start.
    expect(normalSequence(seq('s', { min: '10', start: '10' }))).toEqual(seq('s', { min: '10' }));
    expect(effectiveBounds(seq('s', { increment: '-2' }))).toEqual({
      min: -9223372036854775808n,
      max: -1n,
      start: -1n,
    });
  });

  it('alters only what differs, bounds back to their defaults with NO MINVALUE / NO MAXVALUE', () => {
    const have = seq('up', {
      type: 'integer',
      increment: '5',
      min: '10',
      max: '100000',
      start: '20',
      cache: '4',
      cycle: true,
    });
    expect(sqlOf(model([], [seq('up')]), model([], [have]))).toEqual([
      'ALTER SEQUENCE app.up AS bigint INCREMENT BY 1 NO MINVALUE NO MAXVALUE START WITH 1 CACHE 1 NO CYCLE',
    ]);
    expect(sqlOf(model([], [seq('s', { start: '1000' })]), model([], [seq('s')]))).toEqual([
      'ALTER SEQUENCE app.s START WITH 1000',
    ]);
    // A new MINVALUE does not move START: it is given when the start ends elsewhere.
    expect(sqlOf(model([], [seq('s', { min: '5' })]), model([], [seq('s')]))).toEqual([
      'ALTER SEQUENCE app.s MINVALUE 5 START WITH 5',
    ]);
    expect(sqlOf(model([], [seq('s')]), model([], [seq('s')]))).toEqual([]);
  });

  it('creates a sequence with its declared options, then its owner once the table exists', () => {
    const s = seq('t_ids', { type: 'integer', start: '7', ownedBy: { table: 'app.t', column: 'id' } });
    const r = diff(model([table('t')], [s]), model([]), { now: new Date(0) });
    expect(r.steps.flatMap(renderSql).filter((x) => x.includes('SEQUENCE'))).toEqual([
      'CREATE SEQUENCE app.t_ids AS integer START WITH 7 CACHE 1',
      'ALTER SEQUENCE app.t_ids OWNED BY app.t.id',
    ]);
    const kinds = r.steps.map((x) => x.kind);
    expect(kinds.indexOf('set_sequence_owner')).toBeGreaterThan(kinds.indexOf('create_table'));
  });

  it('moves or removes an owner', () => {
    const t = table('t');
    const owned = seq('s', { ownedBy: { table: 'app.t', column: 'n' } });
    expect(sqlOf(model([t], [seq('s', { ownedBy: { table: 'app.t', column: 'id' } })]), model([t], [owned]))).toEqual([
      'ALTER SEQUENCE app.s OWNED BY app.t.id',
    ]);
    expect(sqlOf(model([t], [seq('s')]), model([t], [owned]))).toEqual(['ALTER SEQUENCE app.s OWNED BY NONE']);
  });

  it('names an owner change of a distributed sequence as a problem', () => {
    const t = table('t');
    const r = diff(
      model([t], [seq('s', { ownedBy: { table: 'app.t', column: 'id' } })]),
      model([t], [seq('s', { distributed: true })]),
      { now: new Date(0) },
    );
    expect(r.problems.map((p) => p.code)).toEqual(['distributed_sequence_change']);
  });
});

describe('sequences in the manifest', () => {
  const base = `version: 1
tables:
  app.t:
    columns:
      id: { type: serial, not_null: true }
      n: bigint
    primary_key: [id]
`;
  it('compares a serial column\u2019s own sequence even when it is not declared', async () => {
    const m = await load(base);
    const s = m.desired.sequences['app.t_id_seq']!;
    expect(s).toMatchObject({ type: 'integer', cache: '1', implicit: true, ownedBy: { table: 'app.t', column: 'id' } });
    const t = m.desired.tables['app.t']!;
    // The cluster's has START 1000: the plan puts back CREATE TABLE's default.
    expect(sqlOf(m.desired, model([t], [{ ...s, implicit: undefined, start: '1000' }]))).toEqual([
      'ALTER SEQUENCE app.t_id_seq START WITH 1',
    ]);
  });

  it('reads owned_by and checks it', async () => {
    const m = await load(
      `${base}sequences:\n  app.other:\n    type: integer\n    min: 0\n    owned_by: { table: app.t, column: n }\n`,
    );
    expect(m.desired.sequences['app.other']).toEqual({
      ...seq('other', { type: 'integer', min: '0' }),
      ownedBy: { table: 'app.t', column: 'n' },
    });
    expect(await problems(`${base}sequences:\n  app.other:\n    owned_by: { table: app.nope, column: n }\n`)).toEqual([
      expect.stringContaining('which the manifest does not declare'),
    ]);
    expect(await problems(`${base}sequences:\n  app.other:\n    owned_by: { table: app.t, column: nope }\n`)).toEqual([
      expect.stringContaining('which table app.t does not declare'),
    ]);
  });

  it('serial -> bigserial changes the column to bigint and its sequence to AS bigint', async () => {
    const m = await load(base.replace('type: serial', 'type: bigserial'));
    const have = (await load(base)).desired;
    const actual = model([have.tables['app.t']!], [{ ...have.sequences['app.t_id_seq']!, implicit: undefined }]);
    expect(sqlOf(m.desired, actual)).toEqual([
      'ALTER TABLE app.t ALTER COLUMN id TYPE bigint',
      'ALTER SEQUENCE app.t_id_seq AS bigint NO MINVALUE NO MAXVALUE',
    ]);
  });

  it('introspect writes owned_by, bounds and start; nothing for a serial sequence at its defaults', () => {
    const t = table('t', {
      columns: [{ name: 'id', type: { base: 'integer', sql: 'serial', serial: true }, notNull: true }],
    });
    const live = {
      model: model(
        [t],
        [
          seq('t_id_seq', { type: 'integer', ownedBy: { table: 'app.t', column: 'id' } }),
          // Owned by the serial column too, but not its own (another name): declared with owned_by.
          seq('u_id_seq', { min: '0', start: '5', ownedBy: { table: 'app.t', column: 'id' } }),
        ],
      ),
      citus: false,
      fingerprint: '',
      objects: {},
      doc: { server: { database: 'd', version: '16.0', versionNum: 160000, citus: null } },
    } as unknown as LiveState;
    const text = liveToManifest(live, { defaultSchema: 'app' });
    expect(text).not.toContain('t_id_seq');
    expect(text).toContain(
      'u_id_seq:\n    type: bigint\n    cache: 1\n    min: 0\n    start: 5\n    owned_by:\n      table: t\n      column: id\n',
    );
  });
});

describe("a foreign key's name", () => {
  const fk: ForeignKey = { name: 'FK_Old', columns: ['n'], refTable: 'app.p', refColumns: ['id'] };
  const p = table('p');
  it('is renamed on a plain table', () => {
    const have = table('c', { foreignKeys: [fk] });
    const want = table('c', { foreignKeys: [{ ...fk, name: 'fk_new' }] });
    expect(sqlOf(model([p, want]), model([p, have]))).toEqual([
      'ALTER TABLE app.c RENAME CONSTRAINT "FK_Old" TO fk_new',
    ]);
    expect(sqlOf(model([p, have]), model([p, have]))).toEqual([]);
  });

  it('is dropped and added on a Citus table (Citus refuses RENAME CONSTRAINT there)', () => {
    const ref: Table['distribution'] = { kind: 'reference' };
    const pr = { ...p, distribution: ref };
    const have = table('c', { foreignKeys: [fk], distribution: ref });
    const want = table('c', { foreignKeys: [{ ...fk, name: 'fk_new' }], distribution: ref });
    expect(sqlOf(model([pr, want]), model([pr, have]))).toEqual([
      'ALTER TABLE app.c DROP CONSTRAINT "FK_Old"',
      'ALTER TABLE app.c ADD CONSTRAINT fk_new FOREIGN KEY (n) REFERENCES app.p (id)',
    ]);
  });
});
