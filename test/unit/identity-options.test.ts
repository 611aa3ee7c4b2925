// An identity column's sequence options (issue #23): the manifest's long form, checked as
// PostgreSQL checks them; CREATE TABLE / ADD COLUMN / ADD GENERATED with them; ALTER COLUMN … SET
// to change them (RESTART only for a sequence never used); what PostgreSQL or Citus would refuse
// as problems; and the manifest introspect writes for them.
import { describe, expect, it } from 'vitest';
import { columnEntry } from '../../src/introspect/column-storage.js';
import { normalIdentityOptions } from '../../src/model/identity-options.js';
import type { ClusterModel, Column, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { renderSql, summarize } from '../../src/plan/steps/step-spec.js';
import { load, problems } from '../support/manifest.js';

const yaml = (column: string): string =>
  `version: 1\ntables:\n  t:\n    columns:\n      id: ${column}\n      v: text\n`;
const empty: ClusterModel = { schemas: ['public'], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} };
const desiredTable = async (column: string): Promise<Table> => (await load(yaml(column))).desired.tables['public.t']!;
/** The desired table against an actual one whose `id` column is changed by `f`. */
async function plan(column: string, f: (c: Column) => Column, distribution?: Table['distribution']) {
  const m = await load(yaml(column));
  const t = m.desired.tables['public.t']!;
  const actual: Table = {
    ...t,
    ...(distribution ? { distribution } : {}),
    columns: t.columns!.map((c) => (c.name === 'id' ? f(c) : c)),
  };
  const r = diff(m.desired, { ...empty, tables: { [t.id]: actual } });
  return {
    sql: r.steps.flatMap((s) => renderSql(s)),
    summaries: r.steps.map(summarize),
    problems: r.problems.map((p) => `${p.object}: ${p.code}: ${p.message}`),
  };
}

describe('identity options: the manifest', () => {
  it('takes the short form and the long form; options at their defaults are nothing', async () => {
    expect((await desiredTable('{ type: bigint, identity: by default }')).columns![0]).toMatchObject({
      identity: 'by default',
    });
    const long = (
      await desiredTable(
        '{ type: integer, identity: { generated: always, start: -100, increment: -5, min: -1000, max: -10, cache: 20, cycle: true } }',
      )
    ).columns![0]!;
    expect(long.identity).toBe('always');
    expect(long.identityOptions).toEqual({
      start: '-100',
      increment: '-5',
      min: '-1000',
      max: '-10',
      cache: '20',
      cycle: true,
    });
    const defaults = (
      await desiredTable(
        '{ type: integer, identity: { generated: always, start: 1, increment: 1, min: 1, max: 2147483647, cache: 1, cycle: false } }',
      )
    ).columns![0]!;
    expect(defaults.identityOptions).toBeUndefined();
    // A descending sequence's defaults: from -1 down to the type's minimum.
    expect(normalIdentityOptions('smallint', { increment: '-1', max: '-1', min: '-32768', start: '-1' })).toEqual({
      increment: '-1',
    });
  });

  it('refuses what PostgreSQL refuses, at the option', async () => {
    expect(await problems(yaml('{ type: integer, identity: { generated: always, max: 3000000000 } }'))).toEqual([
      'error: m.yaml:5:64: tables.t.columns.id.identity.max: max 3000000000 is out of range for integer (-2147483648..2147483647)',
    ]);
    expect(await problems(yaml('{ type: bigint, identity: { generated: always, min: 10, max: 10 } }'))).toEqual([
      'error: m.yaml:5:63: tables.t.columns.id.identity.min: min 10 must be less than max 10',
    ]);
    expect(await problems(yaml('{ type: bigint, identity: { generated: always, increment: -1, min: 5 } }'))).toEqual([
      'error: m.yaml:5:78: tables.t.columns.id.identity.min: min 5 must be less than max -1 (the one not given is the default for the increment)',
    ]);
    expect(await problems(yaml('{ type: bigint, identity: { generated: always, start: 0 } }'))).toEqual([
      'error: m.yaml:5:65: tables.t.columns.id.identity.start: start 0 is outside min..max (1..9223372036854775807)',
    ]);
    expect(await problems(yaml('{ type: bigint, identity: { generated: always, increment: 0 } }'))).toEqual([
      'error: m.yaml:5:69: tables.t.columns.id.identity.increment: increment must not be zero',
    ]);
    expect(await problems(yaml('{ type: bigint, identity: { start: 5 } }'))).toEqual([
      'error: m.yaml:5:37: tables.t.columns.id.identity: expected `always`, `by default`, or { generated: always | by default, start, increment, min, max, cache, cycle }, got a mapping',
    ]);
    expect(await problems(yaml('{ type: text, identity: { generated: always, start: 5 } }'))).toEqual([
      'error: m.yaml:5:35: tables.t.columns.id.identity: an identity column is smallint, integer or bigint, not text',
    ]);
  });
});

describe('identity options: the plan', () => {
  it('are part of CREATE TABLE, ADD COLUMN and ADD GENERATED … AS IDENTITY', async () => {
    const m = await load(
      yaml('{ type: integer, identity: { generated: by default, start: -100, increment: 5, min: -100, max: 100 } }'),
    );
    expect(diff(m.desired, empty).steps.flatMap((s) => renderSql(s))[0]).toBe(
      // START WITH -100 is where a sequence from MINVALUE -100 up starts anyway: left out.
      'CREATE TABLE public.t (\n    id integer GENERATED BY DEFAULT AS IDENTITY (INCREMENT BY 5 MINVALUE -100 MAXVALUE 100) NOT NULL,\n    v text\n)',
    );
    const t = m.desired.tables['public.t']!;
    const withoutId: Table = { ...t, columns: t.columns!.filter((c) => c.name !== 'id') };
    expect(diff(m.desired, { ...empty, tables: { [t.id]: withoutId } }).steps.flatMap((s) => renderSql(s))).toEqual([
      'ALTER TABLE public.t ADD COLUMN id integer GENERATED BY DEFAULT AS IDENTITY (INCREMENT BY 5 MINVALUE -100 MAXVALUE 100) NOT NULL',
    ]);
    const r = await plan('{ type: integer, identity: { generated: by default, cache: 10, cycle: true } }', (c) => ({
      name: c.name,
      type: c.type,
      notNull: false,
    }));
    expect(r.sql).toEqual([
      'ALTER TABLE public.t ALTER COLUMN id SET NOT NULL',
      'ALTER TABLE public.t ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (CACHE 10 CYCLE)',
    ]);
  });

  it('are changed with ALTER COLUMN … SET, and a sequence never used restarts at its new start', async () => {
    const narrowed =
      '{ type: integer, identity: { generated: by default, start: -100, increment: 5, min: -100, max: 100 } }';
    const wide = { start: '-200', increment: '10', min: '-200', max: '200' };
    const unused = await plan(narrowed, (c) => ({ ...c, identityOptions: wide, identityLast: 'unused' }));
    expect(unused.sql).toEqual([
      'ALTER TABLE public.t ALTER COLUMN id SET INCREMENT BY 5 SET MINVALUE -100 SET MAXVALUE 100 SET START WITH -100 RESTART',
    ]);
    expect(unused.summaries).toEqual([
      'set identity options of public.t.id: increment by 5, minvalue -100, maxvalue 100, start with -100, restart (never used: it restarts at its start)',
    ]);
    // In use and inside the new bounds: it goes on from where it is.
    const used = await plan(narrowed, (c) => ({ ...c, identityOptions: wide, identityLast: '-40' }));
    expect(used.sql).toEqual([
      'ALTER TABLE public.t ALTER COLUMN id SET INCREMENT BY 5 SET MINVALUE -100 SET MAXVALUE 100 SET START WITH -100',
    ]);
    expect(used.problems).toEqual([]);
    // Back to the defaults.
    const back = await plan('{ type: bigint, identity: always }', (c) => ({
      ...c,
      identityOptions: { cache: '20', cycle: true, increment: '-1' },
      identityLast: 'unknown',
    }));
    expect(back.sql).toEqual([
      'ALTER TABLE public.t ALTER COLUMN id SET INCREMENT BY 1 SET NO MINVALUE SET NO MAXVALUE SET START WITH 1 SET CACHE 1 SET NO CYCLE',
    ]);
    // The same options, and a kind change alone.
    expect((await plan(narrowed, (c) => ({ ...c, identityLast: '5' }))).sql).toEqual([]);
    expect((await plan('{ type: bigint, identity: always }', (c) => ({ ...c, identity: 'by default' }))).sql).toEqual([
      'ALTER TABLE public.t ALTER COLUMN id SET GENERATED ALWAYS',
    ]);
  });

  it('a sequence in use outside the new bounds is a problem (PostgreSQL refuses the change)', async () => {
    const r = await plan('{ type: integer, identity: { generated: always, start: 100, min: 100 } }', (c) => ({
      ...c,
      identityOptions: undefined,
      identityLast: '3',
    }));
    expect(r.sql).toEqual([]);
    expect(r.problems).toEqual([
      'public.t.id: identity_value_out_of_range: its identity sequence is at 3, outside the new min..max (100..2147483647): PostgreSQL refuses the change ("RESTART value … cannot be …"); choose bounds that hold 3, or restart the sequence by hand (ALTER TABLE … ALTER COLUMN … RESTART WITH …) where no row holds the values it would give again',
    ]);
  });

  it.each([
    ['hash', { kind: 'hash', column: 'v', group: 'g' }],
    ['reference', { kind: 'reference' }],
    ['citus_local', { kind: 'citus_local' }],
  ] as const)('on a %s table a change is a problem: Citus refuses it', async (_n, distribution) => {
    const r = await plan(
      '{ type: bigint, identity: { generated: always, increment: 5 } }',
      (c) => ({ ...c, identityOptions: undefined, identityLast: 'unused' }),
      distribution,
    );
    expect(r.sql.filter((s) => s.includes('ALTER COLUMN id'))).toEqual([]);
    expect(r.problems.filter((p) => p.startsWith('public.t.id'))).toEqual([
      'public.t.id: citus_unsupported_alter: changes its identity sequence options: Citus does not support this on a distributed or reference table (undistribute it first, or add a new column)',
    ]);
  });
});

describe('identity options: introspect', () => {
  it('writes the short form without options and the long form with them', () => {
    const type = { base: 'bigint', sql: 'bigint', serial: false };
    expect(columnEntry({ name: 'id', type, notNull: true, identity: 'always' })).toEqual({
      type: 'bigint',
      identity: 'always',
    });
    expect(
      columnEntry({
        name: 'id',
        type,
        notNull: true,
        identity: 'by default',
        identityOptions: { cycle: true, cache: '5', max: '100', start: '7' },
        identityLast: 'unused',
      }),
    ).toEqual({ type: 'bigint', identity: { generated: 'by default', start: 7, max: 100, cache: 5, cycle: true } });
  });
});
