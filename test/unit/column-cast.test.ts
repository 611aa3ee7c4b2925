// Column type changes that no automatic cast covers get a USING (or are a problem), and a
// default that cannot be cast goes while the type changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { columnCast } from '../../src/plan/diff/column-cast.js';
import { hazardsOf, renderSql } from '../../src/plan/steps/step-spec.js';
import { diff } from '../../src/plan/diff/diff.js';
import type { ClusterModel } from '../../src/model/types.js';
import { load, problems } from '../support/manifest.js';

describe('column casts', () => {
  beforeAll(loadParser);

  it('needs no USING where PostgreSQL casts by itself', () => {
    expect(columnCast('c', 'integer', 'bigint')).toEqual({});
    expect(columnCast('c', 'bigint', 'integer')).toEqual({});
    expect(columnCast('c', 'app.status', 'text')).toEqual({});
    expect(columnCast('c', 'character varying(20)', 'character varying(5)')).toEqual({});
    expect(columnCast('c', 'date', 'timestamp with time zone')).toEqual({});
    expect(columnCast('c', 'json', 'jsonb')).toEqual({});
  });

  it('casts explicitly from a string type, and through text between user-defined types', () => {
    expect(columnCast('c', 'text', 'integer')).toEqual({ using: 'c::integer' });
    expect(columnCast('Col', 'text', 'app.status')).toEqual({ using: '"Col"::app.status' });
    expect(columnCast('c', 'app.s1', 'app.s2')).toEqual({ using: 'c::pg_catalog.text::app.s2' });
    expect(columnCast('c', 'integer', 'boolean')).toEqual({ using: 'c::boolean' });
  });

  it('is a problem between built-in types with no cast', () => {
    expect(columnCast('c', 'date', 'integer')).toEqual({ problem: 'PostgreSQL has no cast from date to integer' });
    expect(columnCast('c', 'uuid', 'bigint')).toEqual({ problem: 'PostgreSQL has no cast from uuid to bigint' });
    expect(columnCast('c', 'date', 'interval')).toEqual({ problem: 'PostgreSQL has no cast from date to interval' });
  });

  it('renders USING, with the default dropped and set again, and carries drops_data', () => {
    const step = {
      kind: 'alter_column_type',
      table: { schema: 'app', name: 't' },
      column: 's',
      type: 'app.status',
      from: 'text',
      using: 's::app.status',
      resetDefault: { default: "'active'::app.status" },
    } as const;
    expect(renderSql(step)).toEqual([
      'ALTER TABLE app.t ALTER COLUMN s DROP DEFAULT',
      'ALTER TABLE app.t ALTER COLUMN s TYPE app.status USING s::app.status',
      "ALTER TABLE app.t ALTER COLUMN s SET DEFAULT 'active'::app.status",
    ]);
    expect(hazardsOf(step)).toEqual(['rewrites_table', 'drops_data']);
  });

  it("takes the manifest's own `using:` for a type change, and only for one", async () => {
    const m = await load(`version: 1
tables:
  app.t:
    columns:
      id: bigint
      c: { type: boolean, using: "CASE WHEN c = 'y' THEN true ELSE false END" }
      d: { type: text, using: "d || '!'" }
`);
    const actual: ClusterModel = {
      schemas: ['app', 'public'],
      tables: {
        'app.t': {
          ...m.desired.tables['app.t']!,
          columns: [
            { name: 'id', type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: false },
            { name: 'c', type: { base: 'text', sql: 'text', serial: false }, notNull: false },
            { name: 'd', type: { base: 'text', sql: 'text', serial: false }, notNull: false },
          ],
        },
      },
      groups: {},
      sequences: {},
      routines: {},
      objects: {},
    };
    const r = diff(m.desired, actual);
    expect(r.problems).toEqual([]);
    // d keeps its type: its USING is not used.
    expect(r.steps.flatMap((s) => renderSql(s))).toEqual([
      "ALTER TABLE app.t ALTER COLUMN c TYPE boolean USING CASE WHEN c = 'y' THEN true ELSE false END",
    ]);
  });

  it('refuses a `using:` that does not parse as an expression', async () => {
    expect(
      await problems('version: 1\ntables:\n  app.t:\n    columns:\n      c: { type: boolean, using: "CASE WHEN" }\n'),
    ).toEqual([expect.stringMatching(/columns\.c\.using.*using "CASE WHEN": /)]);
  });
});
