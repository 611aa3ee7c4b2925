// A column's SET STORAGE is managed: declared, set after CREATE TABLE / ADD COLUMN (PostgreSQL
// 15 takes no STORAGE there), changed, and put back to the type's own when no longer declared.
import { describe, expect, it } from 'vitest';
import type { ClusterModel, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { load } from '../support/manifest.js';

const sqlOf = (d: ClusterModel, a: ClusterModel): string[] =>
  diff(d, a)
    .steps.flatMap((s) => renderSql(s))
    .filter((s) => s.startsWith('ALTER TABLE'));
const empty: ClusterModel = { schemas: ['public'], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} };

describe('column storage', () => {
  it('is set right after a new table and a new column, and only when not the type default', async () => {
    const m = await load(
      'version: 1\ntables:\n  t: { columns: { id: bigint, b: { type: text, storage: external }, c: { type: text, storage: extended } } }\n',
    );
    expect(sqlOf(m.desired, empty)).toEqual(['ALTER TABLE public.t ALTER COLUMN b SET STORAGE EXTERNAL']);
  });

  it('is changed, and put back to the type storage when not declared', async () => {
    const m = await load(
      'version: 1\ntables:\n  t: { columns: { id: bigint, b: text, c: { type: text, storage: main } } }\n',
    );
    const t = m.desired.tables['public.t']!;
    const actual: Table = {
      ...t,
      columns: t.columns!.map((c) =>
        c.name === 'b'
          ? { ...c, storage: 'external', typeStorage: 'extended' }
          : c.name === 'c'
            ? { ...c, storage: undefined }
            : c,
      ),
    };
    expect(sqlOf(m.desired, { ...empty, tables: { [t.id]: actual } })).toEqual([
      'ALTER TABLE public.t ALTER COLUMN b SET STORAGE EXTENDED',
      'ALTER TABLE public.t ALTER COLUMN c SET STORAGE MAIN',
    ]);
    expect(sqlOf(m.desired, { ...empty, tables: { [t.id]: t } })).toEqual([]);
  });
});
