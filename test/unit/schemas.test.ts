// Schemas are objects like the rest: one the manifest does not declare is listed as unmanaged,
// pruned only when the plan drops everything in it; a schema a comment names is created.
import { describe, expect, it } from 'vitest';
import type { ClusterModel, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { hazardsOf, renderSql } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { ignoreMatcher } from '../../src/plan/ignore.js';
import { load } from '../support/manifest.js';

const renderSteps = (steps: readonly Step[]): string[] => steps.flatMap((s) => renderSql(s));
const empty: ClusterModel = { schemas: ['public'], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} };
const table = (schema: string, name: string): Table => ({
  id: `${schema}.${name}`,
  qname: { schema, name },
  columns: [{ name: 'id', type: { base: 'bigint', sql: 'bigint', serial: false }, notNull: false }],
  unique: [],
  indexes: [],
  foreignKeys: [],
  distribution: { kind: 'local' },
});

describe('schemas the manifest does not declare', () => {
  const actual: ClusterModel = { ...empty, schemas: ['public', 'spare', 'Odd One'] };

  it('are listed as unmanaged (public is not), and dropped with prune', () => {
    expect(diff(empty, actual).unmanaged).toEqual(['schema spare', 'schema "Odd One"']);
    const pruned = diff(empty, actual, { prune: true });
    expect(pruned.unmanaged).toEqual([]);
    expect(renderSteps(pruned.steps)).toEqual(['DROP SCHEMA spare', 'DROP SCHEMA "Odd One"']);
  });

  it('are neither listed nor dropped when ignored', () => {
    const r = diff(empty, actual, { prune: true, ignore: ignoreMatcher(['schema spare', 'schema "Odd*']) });
    expect(r.steps).toEqual([]);
    expect(r.unmanaged).toEqual([]);
  });

  it('are dropped after what is in them, and kept (listed) when something in them stays', () => {
    const withTable: ClusterModel = { ...actual, tables: { 'spare.t': table('spare', 't') } };
    expect(renderSteps(diff(empty, withTable, { prune: true }).steps)).toEqual([
      'DROP TABLE spare.t',
      'DROP SCHEMA spare',
      'DROP SCHEMA "Odd One"',
    ]);
    const ignored = diff(empty, withTable, { prune: true, ignore: ignoreMatcher(['table spare.*']) });
    expect(renderSteps(ignored.steps)).toEqual(['DROP SCHEMA "Odd One"']);
    expect(ignored.unmanaged).toEqual(['schema spare']);
    const notManaged = diff(empty, { ...actual, schemasWithNotManaged: ['spare'] }, { prune: true });
    expect(renderSteps(notManaged.steps)).toEqual(['DROP SCHEMA "Odd One"']);
    expect(notManaged.unmanaged).toEqual(['schema spare']);
  });

  it('carry the drops_data hazard', () => {
    const r = diff(empty, actual, { prune: true });
    expect(r.steps.map(hazardsOf)).toEqual([['drops_data'], ['drops_data']]);
  });
});

describe('schemas declared', () => {
  it('an empty schema under schemas: is created and not pruned', async () => {
    const m = await load('version: 1\nschemas:\n  spare: {}\n');
    expect(renderSteps(diff(m.desired, empty, { prune: true }).steps)).toEqual(['CREATE SCHEMA spare']);
    expect(diff(m.desired, { ...empty, schemas: ['public', 'spare'] }, { prune: true }).steps).toEqual([]);
  });

  it('a comment on a schema the manifest declares nowhere else creates the schema first', async () => {
    const m = await load('version: 1\nsql: [c.sql]\n', { 'c.sql': "COMMENT ON SCHEMA other IS 'kept apart';\n" });
    expect(renderSteps(diff(m.desired, empty).steps)).toEqual([
      'CREATE SCHEMA other',
      'SET LOCAL search_path TO public',
      "COMMENT ON SCHEMA other IS 'kept apart'",
      'SET LOCAL search_path TO pg_catalog, public',
    ]);
  });
});
